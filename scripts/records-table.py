#!/usr/bin/env python3
"""The record table of docs/research.md ("Record games"), from data/research/records.csv.

    scripts/records-table.py [data/research/records.csv]

Prints one Markdown row a deck and gather: the published record (rounds, where), warsweep's
longest (rounds, how much longer, the budget). A test checks docs/research.md's table against
the CSV, row by row.
"""
import csv
import sys
from collections import defaultdict

path = sys.argv[1] if len(sys.argv) > 1 else "data/research/records.csv"
rows = defaultdict(dict)
for row in csv.DictReader(open(path, encoding="utf-8")):
    kind = "warsweep" if row["source"] == "warsweep" else "published"
    key = (row["deck"], row["gather"])
    if kind not in rows[key] or int(row["rounds"]) > int(rows[key][kind]["rounds"]):
        rows[key][kind] = row


def order(key):
    copies, values = key[0].split("x")
    return (int(copies), int(values), key[1])


print("| deck | gather | published | where | warsweep | longer by | budget |")
print("|---|---|---|---|---|---|---|")
for key in sorted(rows, key=order):
    published, ours = rows[key].get("published"), rows[key].get("warsweep")
    if published is None:
        continue
    where = published["source"].replace("cristal-smac/bataille ", "cristal ").replace(
        "legrosbuffle/bataille_cpp results/", "bataille_cpp ")
    mine = int(ours["rounds"]) if ours else None
    longer = f"+{mine - int(published['rounds']):,}" if mine and mine > int(published["rounds"]) else "none"
    shown = f"{mine:,}" if mine else ""
    budget = ours["budget"] if ours else ""
    print(f"| {key[0]} | {key[1]} | {int(published['rounds']):,} | {where} | {shown} | "
          f"{longer} | {budget} |")
