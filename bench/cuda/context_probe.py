#!/usr/bin/env python3
"""Run apsp_context_probe (bench/cuda/context_probe.cpp) in fresh processes and print, per
setting, the medians of: the process reaching main, cuInit done, the primary context current,
a first allocation and memset done, the chosen end done, the whole process, and the exit
(from the probe's last line to the process's end). Settings are environment assignments
(";"-separated; "default" for none), crossed with the ends (keep, release, reset, runtime).

    context_probe.py PROBE [--repeat 7] [--settings "default;CUDA_DEVICE_MAX_CONNECTIONS=1"]
                     [--ends keep,reset,runtime] [--mib 64,400]
"""
import argparse
import os
import statistics
import subprocess
import time


def one_run(probe, env, end, mib):
    args = [probe, "keep" if end == "runtime" else end,
            "runtime" if end == "runtime" else "driver", str(mib)]
    start = time.time()
    proc = subprocess.run(args, env=dict(env, PROBE_START=f"{start:.6f}"),
                          capture_output=True, text=True, check=False)
    finish = time.time()
    words = proc.stdout.split()
    if proc.returncode != 0 or not words or words[0] != "probe":
        raise SystemExit(f"probe failed ({end}): {proc.stdout} {proc.stderr}")
    step = {words[i]: float(words[i + 1]) for i in (1, 3, 5, 7, 9)}
    step["whole"] = finish - start
    step["exit"] = finish - float(words[-1])
    return step


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("probe")
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--settings", default="default")
    p.add_argument("--ends", default="keep,release,reset,runtime")
    p.add_argument("--mib", default="64", help="sizes of the allocation kept to the end, MiB")
    a = p.parse_args()
    keys = ["main", "init", "context", "alloc", "end", "exit", "whole"]
    print("setting | end | MiB | " + " | ".join(keys) + " (medians, seconds from the process start)")
    for setting in a.settings.split(";"):
        env = dict(os.environ)
        if setting != "default":
            name, _, value = setting.partition("=")
            env[name] = value
        for mib in a.mib.split(","):
            for end in a.ends.split(","):
                one_run(a.probe, env, end, mib)  # not counted: the first after a change
                runs = [one_run(a.probe, env, end, mib) for _ in range(a.repeat)]
                med = [statistics.median(r[k] for r in runs) for k in keys]
                print(f"{setting} | {end} | {mib} | " + " | ".join(f"{v:.4f}" for v in med),
                      flush=True)


if __name__ == "__main__":
    main()
