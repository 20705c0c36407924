#!/usr/bin/env python3
"""Host test of common/plot.py's CSV side (no matplotlib needed), and of its message when
matplotlib is missing. Run by CTest as plot.host."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
PLOT = os.path.join(HERE, "..", "common", "plot.py")
sys.path.insert(0, os.path.join(HERE, "..", "common"))
import plot  # noqa: E402

CSV = """# Scan Gallery 09_decoupled_lookback: single-pass scan
# device: NVIDIA H100 80GB HBM3 (sm_90) | 132 SMs @ 1980 MHz | L2 50 MiB
# int32 sum | seed 1 (rerun with --seed 1) | median and min of 20 timed runs after 5 warm-up runs
variant,type,op,n,median_ms,min_ms,effective_gb_per_s,ratio_to_copy,model_ratio,model_bytes,valid
baseline: cudaMemcpy D2D,int32,sum,1024,0.004,0.003,2.0,1.0000,1.0000,8192,unchecked
v4/tuned/inclusive,int32,sum,1024,0.005,0.004,1.6,1.2500,1.0000,8192,yes
baseline: cudaMemcpy D2D,int32,sum,4096,0.005,0.004,6.5,1.0000,1.0000,32768,unchecked
v4/tuned/inclusive,int32,sum,4096,0.006,0.005,5.4,1.2000,1.0000,32768,yes
baseline/cub/inclusive,int32,sum,4096,0.008,0.007,4.1,1.6000,1.0000,32768,yes
v3/warp_packed,int32,sum,4096,,,,,1.0000,32768,yes
"""

TOUR = """# device: NVIDIA H200 (sm_90) | 132 SMs
variant,type,op,n,median_ms,min_ms,effective_gb_per_s,ratio_to_copy,model_ratio,model_bytes,valid
baseline: cudaMemcpy D2D,int32,sum,1024,0.004,0.003,2.0,1.0000,1.0000,8192,unchecked
05 scalar_loads/inclusive,int32,sum,1024,0.010,0.009,0.8,2.5,1.0,8192,yes
05 transposed/inclusive,int32,sum,1024,0.005,0.004,1.6,1.25,1.0,8192,yes
06 scan_then_propagate/inclusive,int32,sum,1024,0.009,0.008,0.9,2.2,2.0,16384,yes
02 floor: 10 empty launches (hillis_steele),int32,sum,1024,0.001,0.001,8.0,0.25,0.0,0,unchecked
02 blelloch/inclusive,int32,sum,1024,0.020,0.019,0.4,5.0,11.0,90000,yes
00 cpu/sequential_inclusive_scan,int32,sum,1024,0.001,0.001,8.0,0.2,1.0,8192,unchecked
00 copy/vectorised_16B,int32,sum,1024,0.004,0.004,2.0,1.0,1.0,8192,yes
# the tour's second table: chapter 10's compactions (x copy below 1: not a scan, never in the gallery)
variant,type,op,n,median_ms,min_ms,effective_gb_per_s,ratio_to_copy,model_ratio,model_bytes,valid
10 fused/ballot_lookback [x>t 0.50],int32,compact,1024,0.003,0.003,2.0,0.75,0.75,6152,yes
"""


def write(directory, name, text):
    path = os.path.join(directory, name)
    with open(path, "w") as handle:
        handle.write(text)
    return path


class PlotCsv(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def test_reads_timed_rows_and_the_device(self):
        rows, device = plot.read_rows([write(self.dir, "09.csv", CSV)])
        self.assertEqual(device, "NVIDIA H100 80GB HBM3 (sm_90)")
        self.assertEqual(len(rows), 5)  # the untimed v3 row is left out
        self.assertEqual(rows[1]["variant"], "v4/tuned/inclusive")
        self.assertEqual(rows[1]["n"], 1024)
        self.assertAlmostEqual(rows[1]["x_copy"], 1.25)

    def test_series_and_filters(self):
        rows, _ = plot.read_rows([write(self.dir, "09.csv", CSV)])
        lines = plot.series(plot.selected(rows, ["tuned"]))
        self.assertEqual(sorted(lines), [plot.COPY, "v4/tuned/inclusive"])
        self.assertEqual([p[0] for p in lines["v4/tuned/inclusive"]], [1024, 4096])
        self.assertTrue(plot.is_reference("baseline/cub/inclusive"))

    def test_gallery_keeps_each_chapters_best_and_the_copy(self):
        rows, _ = plot.read_rows([write(self.dir, "tour.csv", TOUR)])
        names = {r["variant"] for r in plot.best_per_chapter(rows)}
        # the floors (no bytes) and the CPU scan are not kernels: never a chapter's "best"
        self.assertEqual(names, {plot.COPY, "00 copy/vectorised_16B", "02 blelloch/inclusive", "05 transposed/inclusive",
                                 "06 scan_then_propagate/inclusive"})

    def test_gallery_from_chapter_files_prefixes_the_chapter(self):
        a = write(self.dir, "09_decoupled_lookback.csv", CSV)
        per_file = [(a, plot.read_rows([a])[0])]
        names = {r["variant"] for r in plot.label_by_chapter(per_file)}
        self.assertIn("09 v4/tuned/inclusive", names)
        self.assertIn(plot.COPY, names)

    def test_scaling_reads_chapter_11s_multi_gpu_rows(self):
        text = ("# device 0: NVIDIA H200 (sm_90) | 132 SMs\n"
                "variant,n,gpus,median_ms,min_ms,effective_gb_per_s,speedup,efficiency,nccl_share,model_efficiency,valid\n"
                "1 GPU: 09 v4/tuned/inclusive,1024,1,0.01,0.01,1.0,1.0,1.0,0.0,1.0,unchecked\n"
                "reduce_exchange_scan/inclusive,1024,1,0.02,0.02,1.0,0.5,0.5,0.0,0.6667,yes\n"
                "reduce_exchange_scan/inclusive,1024,2,0.01,0.01,1.0,1.4,0.7,0.01,0.6667,yes\n")
        rows, device = plot.read_scaling(write(self.dir, "11.csv", text))
        self.assertEqual(device, "NVIDIA H200 (sm_90)")
        self.assertEqual(len(rows), 1)  # one GPU is the yardstick, not a point of the plot
        self.assertEqual(rows[0]["gpus"], 2)
        self.assertAlmostEqual(rows[0]["efficiency"], 0.7)

    def test_not_a_gallery_csv_is_an_error(self):
        with self.assertRaises(ValueError):
            plot.read_rows([write(self.dir, "bad.csv", "variant,n\nx,1\n")])

    def test_without_matplotlib_it_says_how_to_install_it_and_exits_2(self):
        fake = os.path.join(self.dir, "fake")
        os.makedirs(os.path.join(fake, "matplotlib"))
        write(os.path.join(fake, "matplotlib"), "__init__.py", "raise ImportError('hidden for the test')\n")
        env = dict(os.environ, PYTHONPATH=fake)
        result = subprocess.run([sys.executable, PLOT, "sweep", write(self.dir, "09.csv", CSV), "-o", os.path.join(self.dir, "x.png")],
                                env=env, capture_output=True, text=True)
        self.assertEqual(result.returncode, 2)
        self.assertIn("needs matplotlib", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
