#!/usr/bin/env python3
"""Every numeric option of every `screenlab` subcommand given hostile values (issue 15: "Numeric
options are validated by the parser"). Commands are discovered from `--experimental-dump-help`;
each run gets a 20 s timeout and a 6 GB address-space limit. Flags a signal (crash), a timeout
(hang or unbounded work) or an exit 0 on a value that cannot be meant (negative counts, NaN).

    python3 Fuzz/cli/numeric_sweep.py [.build/release/screenlab] > Fuzz/cli/numeric-sweep.txt
"""
import json, os, resource, subprocess, sys, tempfile

binary = sys.argv[1] if len(sys.argv) > 1 else ".build/release/screenlab"
NUMERIC = {"count", "seed", "scale", "threads", "apps", "dialog-probability", "val-fraction", "test-fraction",
           "sheet-screens", "width", "height", "columns", "per-sheet", "epoch", "score-threshold", "iou",
           "max-detections", "confidence", "batch", "max-per-type", "steps", "batch-size", "rounds", "batch1-runs",
           "batch8-runs", "images", "ground-truth", "detections", "classes", "runs", "workers", "seconds"}
VALUES = ["-1", "0", "nan", "inf", "1e308", "99999999999999999999", "4294967297"]

scratch = tempfile.mkdtemp(prefix="cli-sweep-")
missing = os.path.join(scratch, "missing")
# Stand-ins for required arguments: paths that do not exist, and an output folder inside scratch.
REQUIRED = {"weights": missing + ".slw", "inputs": missing + ".png", "out": os.path.join(scratch, "out"),
            "dataset": missing, "to": "yolo", "data": missing + ".yaml", "file": missing + ".slw",
            "safetensors": missing + ".safetensors", "model": missing + ".yaml", "thresholds": missing + ".yaml",
            "reports": missing, "run-id": "x", "folders": missing, "count": "3"}

def commands():
    dump = json.loads(subprocess.run([binary, "--experimental-dump-help"], capture_output=True, text=True).stdout)
    def walk(c, path):
        cmd = c.get("command", c)
        name = path + [cmd["commandName"]]
        if not cmd.get("subcommands"):
            yield name[1:], cmd.get("arguments", [])
        for s in cmd.get("subcommands", []):
            yield from walk(s, name)
    yield from walk(dump, [])

def limit():
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))

def run(argv):
    try:
        p = subprocess.run(argv, capture_output=True, text=True, timeout=20, preexec_fn=limit)
        return p.returncode, (p.stderr or p.stdout).strip().splitlines()[-1:] or [""]
    except subprocess.TimeoutExpired:
        return "timeout", [""]

problems = 0
for path, arguments in commands():
    if path == ["help"]:
        continue
    base = list(path)
    names = []
    for a in arguments:
        n = (a.get("names") or [{}])[0].get("name") or a.get("valueName")
        if a.get("kind") == "positional" and not a.get("isOptional"):
            base.append(REQUIRED.get(a.get("valueName"), missing))
        elif a.get("kind") == "option" and not a.get("isOptional"):
            base += ["--" + n, REQUIRED.get(n, missing)]
        if a.get("kind") == "option" and n in NUMERIC:
            names.append(n)
    for n in names:
        for v in VALUES:
            argv = [binary] + [x for x in base]
            # Replace a required option's stand-in value rather than giving the option twice.
            if "--" + n in argv:
                argv[argv.index("--" + n) + 1] = v
            else:
                argv += ["--" + n, v]
            code, last = run(argv)
            # Any seed is a valid seed and 0 workers means "load on the training thread": a
            # benchmark that runs past the timeout with those is doing what it was asked.
            legitimate_long_run = n == "seed" or (n == "workers" and v == "0")
            hang = code == "timeout" and not legitimate_long_run
            bad = hang or (isinstance(code, int) and (code < 0 or code >= 128)) or (code == 0 and v in ("-1", "nan", "inf"))
            problems += bad
            print(f"{'PROBLEM' if bad else 'ok     '} {code!s:>7}  {' '.join(path)} --{n} {v}  | {last[0][:150]}")
print(f"{problems} problems")
