#!/usr/bin/env python3
"""Hostile text, written without Concord's code: what another person could put in a title or a
message to act on the terminals of everyone who sees it. Prints a JSON list of strings.

usage: hostile_text.py SEED COUNT
"""
import json
import random
import sys

# Each acts on a terminal when written to it raw.
ATTACKS = [
    "\x1b[31m",            # CSI: colour the rest red
    "\x1b[2J\x1b[H",       # clear the screen, cursor home
    "\x1b]0;pwned\x07",    # OSC: set the window title
    "\x1b]52;c;cHduZWQ=\x07",  # OSC 52: write the clipboard
    "\x1bc",               # RIS: reset the terminal
    "\x07",                # bell
    "\x08\x08",            # backspaces: draw over what came before
    "\r",                  # back to the line's start
    "\n",                  # a new line: splits a row in two
    "\t",                  # a tab: moves the columns
    "\x00",                # NUL
    "\x7f",                # DEL
    "\u009b31m",           # C1 CSI (8-bit)
    "\u0085",              # C1 NEL
    "\u202e",              # right-to-left override
    "\u2028",              # line separator
]
PLAIN = ["Fix", "login", "red", "日本", "café", "x", "ok"]


def hostile(rng):
    parts = []
    for _ in range(rng.randint(2, 4)):
        parts.append(rng.choice(PLAIN))
        parts.append(rng.choice(ATTACKS))
    parts.append(rng.choice(PLAIN))
    return "".join(parts)


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    texts = [hostile(rng) for _ in range(count)]
    # Every attack at least once.
    for index, attack in enumerate(ATTACKS):
        texts[index % count] += attack + "end"
    json.dump(texts, sys.stdout)


if __name__ == "__main__":
    main()
