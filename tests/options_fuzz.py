#!/usr/bin/env python3
"""Fuzzes a chapter program's command line: seeded random argument lists (known options with
bad values, unknown options, repeats, empty words, huge numbers, options where values belong).

  tests/options_fuzz.py PROGRAM --seed S --lists N --full-runs K

Every run must exit 0 (--help), 2 (a bad option: exactly one line on stderr, naming the program)
or 77 (--require-gpu without a GPU), never crash, and write nothing outside its --out directory.
Each run starts in an empty directory of its own. The options come from the program's --help.

Cheap by construction: a list that names no --out gets `--out BLOCKED/out` last, a path under a
regular file, so that a list the parser accepts stops at its output directory (exit 2, before
any work); the lists' own --out values are all unusable. Then K lists of valid values only (the
smallest of each range, or one above) run in full with --cpu-only: exit 0, every file written
under their --out. --bench is left out: it chooses what runs, not how options are read.
A failure prints the seed, the list and what the program said.
"""
import argparse
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

OPTION_LINE = re.compile(r"^\s+(?:-\w,)?(--[\w-]+)(?: (\S+))?")
RANGE = re.compile(r"in \[(-?[\d.e+-]+), (-?[\d.e+-]+)\]")
PARSE_TIMEOUT_S = 60
FULL_RUN_TIMEOUT_S = 300


def options_of(program):
    """{name: (kind, lo, hi, default)} from --help; kind is 'flag', 'int', 'real', 'uint', 'dir' or 'text'."""
    help_text = subprocess.run([program, "--help"], capture_output=True, text=True, timeout=PARSE_TIMEOUT_S)
    if help_text.returncode != 0:
        sys.exit(f"options_fuzz: {program} --help exited {help_text.returncode}: {help_text.stderr.strip()}")
    options = {}
    for line in help_text.stdout.splitlines():
        match = OPTION_LINE.match(line)
        if not match or match.group(1) == "--help":
            continue
        name, type_text = match.group(1), match.group(2) or ""
        default = type_text.split("=", 1)[1] if "=" in type_text else None
        bounds = RANGE.search(line)
        if not type_text:
            options[name] = ("flag", None, None, None)
        elif "DIR" in type_text:
            options[name] = ("dir", None, None, default)
        elif "INT in" in type_text and bounds:
            options[name] = ("int", int(bounds.group(1)), int(bounds.group(2)), default)
        elif "REAL in" in type_text and bounds:
            options[name] = ("real", float(bounds.group(1)), float(bounds.group(2)), default)
        elif "UINT64" in type_text:
            options[name] = ("uint", 0, 2**64 - 1, default)
        else:
            options[name] = ("text", None, None, default)
    return options


JUNK = ["", " ", "x", "-", "--", "nan", "inf", "-inf", "1e999", "0x10", "1.5", " 1", "1 ", "+1", "1,2", "9" * 40,
        str(2**63), str(-(2**63) - 1), str(2**64), "\u00e9", "--quiet"]
ODD_WORDS = ["--help", "--nope", "-x", "---", "--=", "-", "positional", "", "--SEED", "--kernel-", "-h=1", "--cpu_only"]


def bad_value(rng, kind, lo, hi):
    if kind == "int":
        return rng.choice([str(lo - 1), str(hi + 1), str(-(2**63)), str(2**63 - 1), str(hi * 10**6)] + JUNK)
    if kind == "real":
        return rng.choice([repr(lo - 1), repr(hi * 2 + 1), "1e308", "-0x1p3"] + JUNK)
    if kind == "uint":
        return rng.choice(["-1", str(2**64), "1e3"] + JUNK)
    if kind == "dir":  # all unusable, so that no list of these runs in full
        return rng.choice(["", "BLOCKED", "BLOCKED/sub", "/proc/no_directory_here"])
    return rng.choice(["", "/proc/no_file_here", "no such thing", "\u00e9"] + JUNK)


def valid_value(rng, kind, lo, hi, default):
    if kind == "int":
        return str(rng.choice([lo, min(hi, lo + 1)] + ([int(default)] if default else [])))
    if kind == "real":
        return rng.choice([repr(lo), default or repr(lo)])
    if kind == "uint":
        return rng.choice(["0", "1", str(2**64 - 1)])
    return default


def random_list(rng, options):
    names = [n for n in options if n != "--bench"]
    words = []
    for _ in range(rng.randint(1, 5)):
        roll = rng.random()
        name = rng.choice(names)
        kind, lo, hi, default = options[name]
        if roll < 0.15:
            words.append(rng.choice(ODD_WORDS))
        elif roll < 0.25 and words:
            words.extend(words[-2:])  # a repeat
        elif kind == "flag":
            words.append(name if rng.random() < 0.8 else name + "=" + rng.choice(["1", "x", ""]))
        else:
            value = bad_value(rng, kind, lo, hi) if rng.random() < 0.7 or kind in ("dir", "text") else (
                valid_value(rng, kind, lo, hi, default))
            if value is None:
                continue
            if rng.random() < 0.15:
                words.append(name)  # the value missing, or the next word taken for it
            elif rng.random() < 0.3:
                words.append(f"{name}={value}")
            else:
                words.extend([name, value])
    return words


def valid_list(rng, options):
    """The smallest sizes: the cheapest full run, and the edge a program is most likely to get wrong."""
    words = ["--cpu-only", "--quiet"]
    for name, (kind, lo, hi, _) in options.items():
        if kind in ("int", "real"):
            words.extend([name, str(rng.choice([lo, min(hi, lo + 1)]) if kind == "int" else repr(lo))])
    return words + ["--out", "out"]


def files_under(root):
    found = set()
    for directory, _, files in os.walk(root):
        for name in files:
            found.add(os.path.relpath(os.path.join(directory, name), root))
        if directory != root and not files:
            found.add(os.path.relpath(directory, root) + "/")
    return found


def run(program, words, timeout):
    """Runs the list in an empty directory of its own; returns (rc, stdout, stderr, files written, error)."""
    sandbox = tempfile.mkdtemp(prefix="options_fuzz.")
    try:
        with open(os.path.join(sandbox, "BLOCKED"), "w"):
            pass
        try:
            result = subprocess.run([program] + words, cwd=sandbox, capture_output=True, text=True, errors="replace",
                                    timeout=timeout)
        except subprocess.TimeoutExpired:
            return None, "", "", set(), f"still running after {timeout} s"
        written = files_under(sandbox) - {"BLOCKED"}
        return result.returncode, result.stdout, result.stderr, written, None
    finally:
        shutil.rmtree(sandbox, ignore_errors=True)


def check(program, options, words, rc, stderr, written, error, out_dir):
    """The problem with one run, or None."""
    name = os.path.basename(program)
    if error:
        return error
    allowed_rc = {0, 2} | ({77} if "--require-gpu" in words else set())
    if rc not in allowed_rc:
        return f"exit code {rc} (allowed: {sorted(allowed_rc)})"
    if rc == 2:
        lines = stderr.strip().splitlines()
        if len(lines) != 1 or not lines[0].startswith(name + ": "):
            return "exit code 2 without exactly one line on stderr naming the program"
        # options.hpp: a missing value is named as such, "--seed=" and "--seed --quiet" alike
        for word, next_word in zip(words, words[1:]):
            option = word[:-1]
            if (word.endswith("=") and options.get(option, ("flag",))[0] != "flag"
                    and lines[0].startswith(f"{name}: {option}: ") and f"got '{next_word}'" in lines[0]):
                return f"{next_word} was taken for the value of {word}"
    outside = sorted(f for f in written if not (out_dir and (f + "/").startswith(out_dir.rstrip("/") + "/")))
    if outside:
        return "wrote outside --out: " + ", ".join(outside[:5])
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("program")
    parser.add_argument("--seed", type=int, default=43)
    parser.add_argument("--lists", type=int, default=40)
    parser.add_argument("--full-runs", type=int, default=1)
    args = parser.parse_args()
    program = os.path.abspath(args.program)
    options = options_of(program)
    rng = random.Random(args.seed)
    failures, counts, parsed = [], {}, 0
    for index in range(args.lists + args.full_runs):
        full = index >= args.lists
        words = valid_list(rng, options) if full else random_list(rng, options)
        if not full and not any(w == "--out" or w.startswith("--out=") for w in words):
            words = words + ["--out", "BLOCKED/out"]
        rc, stdout, stderr, written, error = run(program, words, FULL_RUN_TIMEOUT_S if full else PARSE_TIMEOUT_S)
        problem = check(program, options, words, rc, stderr, written, error, "out" if full else None)
        if full and not problem and rc != 0:
            problem = f"a list of valid values exited {rc}"
        counts[rc] = counts.get(rc, 0) + 1
        parsed += "--out: cannot create 'BLOCKED/out'" in stderr  # accepted by the parser, stopped before work
        if problem:
            failures.append(f"seed {args.seed}, list {index}: {shlex.join([program] + words)}\n  {problem}\n"
                            f"  stderr: {stderr.strip()[-2000:]}")
    summary = ", ".join(f"exit {rc}: {n}" for rc, n in sorted(counts.items(), key=lambda item: str(item[0])))
    print(f"options fuzz {os.path.basename(program)}: {args.lists} random lists and {args.full_runs} full runs "
          f"from seed {args.seed} ({summary}; {parsed} parsed, then stopped at --out); {len(failures)} failed")
    for failure in failures:
        print(failure)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
