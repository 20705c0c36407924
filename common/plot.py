#!/usr/bin/env python3
"""common/plot.py - draw any Scan Gallery program's --csv output.

  plot.py sweep   CSV... -o chapter.png [--variant A,B] [--title T]
      throughput against n: effective GB/s (top: what the operation must move, read n + write n
      for a scan, read n + write k for a compaction, over its time) and x copy (bottom), log2 n,
      one line per variant; the copy and CUB are drawn dashed, as references
  plot.py suite   CSV... -o suite.png [--variant A,B] [--title T]
      the 2,022-size suite as a scatter (Merrill & Grimshaw's figure 28): GB/s against n,
      one colour per variant
  plot.py scaling CSV -o scaling.png [--title T]
      chapter 11's --csv (one array over several GPUs): parallel efficiency against n, one line
      per variant and GPU count, with each variant's model as a dotted line
  plot.py gallery CSV... -o gallery.png [--title T]
      the tour's CSV, or one CSV per chapter (named NN_...): the best variant of each
      chapter (lowest x copy at the largest n) against n, with the copy: the whole story in
      one picture

The CSV is what every program prints with --csv (comment lines start with '#'; the device is
named in them, and the plot's caption repeats it). Reading needs only the standard library
(tests/test_plot_csv.py checks it); drawing needs matplotlib, the gallery's one optional
dependency: without it this prints how to install it and exits with code 2.
"""
import argparse
import csv
import os
import sys

COLUMNS = ["variant", "type", "op", "n", "median_ms", "min_ms", "effective_gb_per_s", "ratio_to_copy", "model_ratio",
           "model_bytes", "valid"]
COPY = "baseline: cudaMemcpy D2D"


def read_records(path, columns, what):
    """The data records of one CSV (comment lines start with '#'; repeated headers are skipped),
    and the device named in its '# device...:' comment. `what` names the format in the error
    raised when a column is missing."""
    device, data_lines = "", []
    with open(path, newline="") as handle:
        for line in handle:
            if line.startswith("#"):
                if line.startswith("# device"):
                    device = line.split(":", 1)[1].strip().split("|")[0].strip()
            elif line.strip():
                data_lines.append(line)
    reader = csv.DictReader(data_lines)
    missing = [c for c in columns if c not in (reader.fieldnames or [])]
    if data_lines and missing:
        raise ValueError(f"{path}: not {what} (missing {', '.join(missing)})")
    return [r for r in reader if r["variant"] != "variant"], device


def read_rows(paths):
    """All timed rows of the given CSV files, and the device named in their comments."""
    rows, device = [], ""
    for path in paths:
        records, named = read_records(path, COLUMNS, "a Scan Gallery CSV")
        device = named or device
        for record in records:
            if record["median_ms"] in (None, ""):
                continue  # a row that was not timed
            rows.append({
                "variant": record["variant"],
                "type": record["type"],
                "op": record["op"],
                "n": int(record["n"]),
                "median_ms": float(record["median_ms"]),
                "gb_per_s": float(record["effective_gb_per_s"]),
                "x_copy": float(record["ratio_to_copy"]),
                "valid": record["valid"],
            })
    return rows, device


def selected(rows, wanted):
    """Rows whose variant contains one of the wanted substrings, or starts with one written
    ^prefix (all, without a filter), and the copy."""
    if not wanted:
        return rows

    def matches(variant, w):
        return variant.startswith(w[1:]) if w.startswith("^") else w in variant

    return [r for r in rows if r["variant"] == COPY or any(matches(r["variant"], w) for w in wanted)]


def series(rows):
    """{variant: [(n, gb_per_s, x_copy), ...] sorted by n}, in the order variants first appear."""
    out = {}
    for r in rows:
        out.setdefault(r["variant"], []).append((r["n"], r["gb_per_s"], r["x_copy"]))
    return {name: sorted(points) for name, points in out.items()}


def is_kernel(name):
    """False for rows that time no scan kernel: the copy, chapter 02's floors (empty launches),
    chapter 00's CPU scan."""
    label = name.split(" ", 1)[-1] if name[:2].isdigit() else name
    return name != COPY and not label.startswith(("floor:", "cpu/"))


def best_per_chapter(rows):
    """The tour's rows of each chapter's best variant: lowest x copy at the largest n it ran."""
    by_chapter = {}
    for r in rows:
        if not is_kernel(r["variant"]) or r["op"] == "compact":  # the gallery is of scans (chapter 10 compacts)
            continue
        chapter = r["variant"].split(" ", 1)[0]
        by_chapter.setdefault(chapter, []).append(r)
    best = {}
    for chapter, chapter_rows in by_chapter.items():
        largest = max(r["n"] for r in chapter_rows)
        at_largest = [r for r in chapter_rows if r["n"] == largest]
        best[chapter] = min(at_largest, key=lambda r: r["x_copy"])["variant"]
    return [r for r in rows if r["variant"] == COPY or r["variant"] in best.values()]


def is_reference(name):
    return name == COPY or "cub" in name.lower()


def need_matplotlib():
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError:
        print("plot.py needs matplotlib to draw: python3 -m pip install matplotlib "
              "(or: sudo apt-get install python3-matplotlib)", file=sys.stderr)
        sys.exit(2)


def caption(title, device, rows):
    kinds = sorted({f"{r['type']} {r['op']}" for r in rows})
    return f"{title}\n{device or 'unknown GPU'} | {', '.join(kinds)}"


def log2_axis(ax):
    ax.set_xscale("log", base=2)
    ax.grid(True, which="both", alpha=0.3)


def draw_sweep(rows, device, title, output):
    plt = need_matplotlib()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(9, 8), sharex=True)
    for ax in (top, bottom):  # 20 colours: the gallery has more lines than the default 10
        ax.set_prop_cycle(color=plt.get_cmap("tab20").colors)
    for name, points in series(rows).items():
        ns = [p[0] for p in points]
        style = dict(linestyle="--", linewidth=2, color="black" if name == COPY else None) if is_reference(name) else dict(marker="o", markersize=3)
        top.plot(ns, [p[1] for p in points], label=name, **style)
        bottom.plot(ns, [p[2] for p in points], label=name, **style)
    top.set_ylabel("effective GB/s: bytes it must move / time")
    bottom.set_ylabel("x copy (time / cudaMemcpy time)")
    bottom.set_xlabel("n (elements)")
    bottom.set_yscale("log", base=2)
    for ax in (top, bottom):
        log2_axis(ax)
    top.legend(fontsize=7, loc="upper left")
    fig.suptitle(caption(title, device, rows), fontsize=10)
    fig.tight_layout()
    fig.savefig(output, dpi=90)


def draw_suite(rows, device, title, output):
    plt = need_matplotlib()
    fig, ax = plt.subplots(figsize=(9, 5.5))
    for name, points in series(rows).items():
        ax.scatter([p[0] for p in points], [p[1] for p in points], s=4, label=name,
                   color="black" if name == COPY else None, alpha=0.6)
    ax.set_ylabel("effective GB/s")
    ax.set_xlabel("n (elements): the 2,022 sizes of the suite")
    log2_axis(ax)
    ax.legend(fontsize=7, markerscale=3, loc="upper left")
    fig.suptitle(caption(title, device, rows), fontsize=10)
    fig.tight_layout()
    fig.savefig(output, dpi=90)


SCALING_COLUMNS = ["variant", "n", "gpus", "median_ms", "speedup", "efficiency", "model_efficiency"]


def read_scaling(path):
    """Chapter 11's timed multi-GPU rows (gpus > 1) and the device named in its comments."""
    records, device = read_records(path, SCALING_COLUMNS, "chapter 11's CSV")
    rows = [{"variant": r["variant"], "n": int(r["n"]), "gpus": int(r["gpus"]), "efficiency": float(r["efficiency"]),
             "model": float(r["model_efficiency"])}
            for r in records if r["efficiency"] not in (None, "") and int(r["gpus"]) >= 2]
    return rows, device


def draw_scaling(rows, device, title, output):
    plt = need_matplotlib()
    fig, ax = plt.subplots(figsize=(9, 5.5))
    lines = {}
    for r in rows:
        lines.setdefault((r["variant"], r["gpus"]), []).append((r["n"], r["efficiency"], r["model"]))
    for (variant, gpus), points in sorted(lines.items()):
        points.sort()
        line, = ax.plot([p[0] for p in points], [100 * p[1] for p in points], marker="o", label=f"{variant}, {gpus} GPUs")
        ax.plot([p[0] for p in points], [100 * p[2] for p in points], linestyle=":", color=line.get_color())
    ax.axhline(85, color="black", linestyle="--", linewidth=1, label="85% efficiency")
    ax.set_ylabel("parallel efficiency, % (one GPU's chapter 09 scan / (GPUs x time))")
    ax.set_xlabel("n (elements, the whole array)")
    ax.set_ylim(0, 105)
    log2_axis(ax)
    ax.legend(fontsize=7, loc="lower right")
    fig.suptitle(f"{title}\n{device or 'unknown GPU'} | dotted: each variant's model", fontsize=10)
    fig.tight_layout()
    fig.savefig(output, dpi=90)


def label_by_chapter(rows_per_file):
    """For the gallery from per-chapter CSVs: prefix each variant with its file's chapter number
    (the file names start with it); the copy is taken from the first file only."""
    labelled = []
    for index, (path, rows) in enumerate(rows_per_file):
        chapter = os.path.basename(path)[:2]
        for r in rows:
            if r["variant"] == COPY:
                if index == 0:
                    labelled.append(r)
                continue
            if not r["variant"][:2].isdigit():
                r = dict(r, variant=f"{chapter} {r['variant']}")
            labelled.append(r)
    return labelled


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("kind", choices=["sweep", "suite", "gallery", "scaling"])
    parser.add_argument("csv", nargs="+")
    parser.add_argument("-o", "--output", required=True)
    parser.add_argument("--variant", default="", help="comma-separated substrings (^prefix: names that start with it): draw only these variants (and the copy)")
    parser.add_argument("--title", default="")
    args = parser.parse_args(argv)
    if args.kind == "scaling":
        rows, device = read_scaling(args.csv[0])
        if not rows:
            print(f"plot.py: no timed multi-GPU rows in {args.csv[0]}", file=sys.stderr)
            return 1
        draw_scaling(rows, device, args.title or os.path.basename(args.output).rsplit(".", 1)[0], args.output)
        print(f"wrote {args.output}")
        return 0
    if args.kind == "gallery" and len(args.csv) > 1:
        per_file = [(path, read_rows([path])[0]) for path in args.csv]
        rows, device = label_by_chapter(per_file), read_rows(args.csv[:1])[1]
    else:
        rows, device = read_rows(args.csv)
    if not rows:
        print(f"plot.py: no timed rows in {', '.join(args.csv)}", file=sys.stderr)
        return 1
    rows = selected(rows, [w for w in args.variant.split(",") if w])
    title = args.title or os.path.basename(args.output).rsplit(".", 1)[0]
    if args.kind == "sweep":
        draw_sweep(rows, device, title, args.output)
    elif args.kind == "suite":
        draw_suite(rows, device, title, args.output)
    else:
        draw_sweep(best_per_chapter(rows), device, title, args.output)
    print(f"wrote {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
