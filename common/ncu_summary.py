#!/usr/bin/env python3
"""common/ncu_summary.py - the short text summary of an Nsight Compute CSV export.

Reads `ncu --import REPORT --page raw --csv --metrics ...` (as written by profile.sh) and
prints one block per kernel launch with the lecture metrics. Standard library only.
"""
import csv
import re
import sys

STALL = re.compile(r"smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio")


def number(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def short_name(name):
    name = re.sub(r"\(.*\)$", "", name)          # drop the parameter list
    name = re.sub(r"^void ", "", name)
    return name if len(name) <= 90 else name[:87] + "..."


def to_megabytes(value, unit):
    scale = {"byte": 1e-6, "Kbyte": 1e-3, "Mbyte": 1.0, "Gbyte": 1e3, "B": 1e-6, "KB": 1e-3, "MB": 1.0, "GB": 1e3}.get(unit, None)
    return None if value is None or scale is None else value * scale


def to_microseconds(value, unit):
    scale = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3, "second": 1e6, "ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}.get(unit, None)
    return None if value is None or scale is None else value * scale


def main(path):
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].startswith("==")]
    if len(rows) < 3:
        print("no kernels in the report")
        return 1
    header, units, data = rows[0], rows[1], rows[2:]
    col = {name: i for i, name in enumerate(header)}

    def get(row, metric):
        i = col.get(metric)
        return (number(row[i]), units[i]) if i is not None and i < len(row) else (None, "")

    for row in data:
        name = row[col["Kernel Name"]] if "Kernel Name" in col else "?"
        duration = to_microseconds(*get(row, "gpu__time_duration.sum"))
        mem = get(row, "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed")[0]
        dram = get(row, "dram__throughput.avg.pct_of_peak_sustained_elapsed")[0]
        l1 = get(row, "l1tex__throughput.avg.pct_of_peak_sustained_active")[0]
        l2 = get(row, "lts__throughput.avg.pct_of_peak_sustained_elapsed")[0]
        read = to_megabytes(*get(row, "dram__bytes_read.sum"))
        write = to_megabytes(*get(row, "dram__bytes_write.sum"))
        conflicts_ld = get(row, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum")[0]
        conflicts_st = get(row, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum")[0]
        wavefronts_ld = get(row, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum")[0]
        wavefronts_st = get(row, "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum")[0]
        occupancy = get(row, "sm__warps_active.avg.pct_of_peak_sustained_active")[0]
        theoretical = get(row, "sm__maximum_warps_per_active_cycle_pct")[0]
        l2_hits = get(row, "lts__t_sector_hit_rate.pct")[0]
        registers = get(row, "launch__registers_per_thread")[0]
        # blocks per SM as each resource allows: the smallest is the occupancy limiter
        limits = {what: get(row, f"launch__occupancy_limit_{what}")[0] for what in ("blocks", "registers", "shared_mem", "warps")}
        known = {what: v for what, v in limits.items() if v is not None}
        limiter = min(known, key=known.get) if known else None
        stalls = []
        for metric, i in col.items():
            m = STALL.fullmatch(metric)
            if m and number(row[i]) is not None:
                stalls.append((number(row[i]), m.group(1)))
        stalls.sort(reverse=True)
        total = sum(v for v, _ in stalls) or 1.0

        def fmt(v, spec):
            return "n/a" if v is None else format(v, spec)

        print(f"kernel  {short_name(name)}")
        print(f"  duration            {fmt(duration, '.1f')} us")
        print(f"  memory throughput   {fmt(mem, '.1f')} % of peak   (L1 {fmt(l1, '.1f')} %, L2 {fmt(l2, '.1f')} %, DRAM {fmt(dram, '.1f')} %)")
        print(f"  DRAM bytes          read {fmt(read, '.1f')} MB, write {fmt(write, '.1f')} MB")
        print(f"  shared memory       load {fmt(wavefronts_ld, '.0f')} wavefronts, {fmt(conflicts_ld, '.0f')} bank conflicts;"
              f" store {fmt(wavefronts_st, '.0f')} wavefronts, {fmt(conflicts_st, '.0f')} bank conflicts")
        print(f"  L2 hit rate         {fmt(l2_hits, '.1f')} % of sectors")
        print(f"  achieved occupancy  {fmt(occupancy, '.1f')} % (theoretical {fmt(theoretical, '.1f')} %)")
        if known:
            per_sm = ", ".join(f"{what} {v:.0f}" for what, v in known.items())
            print(f"  blocks per SM       {known[limiter]:.0f}, limited by {limiter} (each resource allows: {per_sm});"
                  f" {fmt(registers, '.0f')} registers/thread")
        top = ", ".join(f"{reason} {100 * v / total:.0f}%" for v, reason in stalls[:3])
        print(f"  top warp stalls     {top if top else 'n/a'}")
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
