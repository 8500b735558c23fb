"""What collected/build.py and later/build.py share: a run's record in the step replay's shape, and the file they
write. Every number that enters a step time stays a literal in the calling script, beside its quote."""
import json
import os

MIB = 1024 * 1024
ORDER = ["id", "series", "source", "source_group", "quote", "framework", "input", "measured_step_s", "baseline_step_s",
         "baseline_note", "inferred", "fitted", "noise_s", "noise_basis"]


def r4(x):
    return round(x, 4)


def run(**kw):
    """One run: the compute given to the model is the baseline step; the noise is the run's own spread where the
    source lists repeats, else 2% of the compute (issue 26: set before modelling)."""
    kw.setdefault("fitted", [])
    kw.setdefault("source_group", None)
    kw.setdefault("noise_s", None)
    kw["input"]["compute"] = {"kind": "given", "ms": round(kw["baseline_step_s"] * 1000, 1)}
    kw["measured_step_s"] = r4(kw["measured_step_s"])
    kw["baseline_step_s"] = r4(kw["baseline_step_s"])
    if kw["noise_s"] is not None:
        kw["noise_s"] = r4(kw["noise_s"])
        kw["noise_basis"] = "own spread: max - min of the step over the repeats the source lists"
    else:
        kw["noise_s"] = r4(0.02 * kw["baseline_step_s"])
        kw["noise_basis"] = "2% of the compute: the source reports no spread"
    extra = [k for k in kw if k not in ORDER]
    return {k: kw[k] for k in ORDER + extra}


def write(script, about, runs):
    """Writes runs.json beside `script` (the caller's __file__) and prints each run's added time."""
    with open(os.path.join(os.path.dirname(os.path.abspath(script)), "runs.json"), "w") as f:
        json.dump({"about": about, "runs": runs}, f, indent=1, ensure_ascii=False)
        f.write("\n")
    for r in runs:
        add_s = r["measured_step_s"] - r["baseline_step_s"]
        print(f'{r["id"]:60s} meas {r["measured_step_s"]:8.4f} base {r["baseline_step_s"]:8.4f} added {add_s:+.4f} '
              f'({100*add_s/r["baseline_step_s"]:+.1f}%) noise {r["noise_s"]}')
    print(len(runs), "runs")
