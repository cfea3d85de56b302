#!/usr/bin/env python3
"""Rebuilds browscap.tsv, yauaa.tsv and woothee.tsv from clones of the three projects (see README.md).

    python3 make.py BROWSCAP_CLONE YAUAA_CLONE WOOTHEE_CLONE

Needs PyYAML. Every string that is a row of ../corpus/ua-dev.tsv is left out, so the lists only hold
strings the corpus does not.
"""
import glob
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
HEADER = "label\tplatform\tkind\tuser_agent\n"


def corpus_strings():
    with open(os.path.join(HERE, "..", "corpus", "ua-dev.tsv"), encoding="utf-8") as f:
        next(f)
        return {line.rstrip("\n").split("\t")[3] for line in f}


def usable(ua, seen, corpus):
    return isinstance(ua, str) and ua and not any(c in ua for c in "\t\r\n") and ua not in seen and ua not in corpus


def desktop_name(name):
    return name in {
        "Windows NT", "Windows", "Windows 9x", "Windows 3.x", "Mac OS", "Linux", "Gentoo Linux", "Mageia",
        "Ubuntu", "Debian", "Fedora", "Chrome OS",
    }


def browscap(root, corpus):
    """tests/issues/*.php: every test's User-Agent with the first Browser_Type and Platform given for it."""
    entry = re.compile(r"'ua' => '((?:[^'\\]|\\.)*)',\s*'properties' => \[(.*?)\n\s*\],", re.S)
    prop = re.compile(r"'(\w+)' => (?:'((?:[^'\\]|\\.)*)'|(\w+))")
    rows, seen = [], set()
    for path in sorted(glob.glob(os.path.join(root, "tests", "issues", "*.php"))):
        for m in entry.finditer(open(path, encoding="utf-8").read()):
            ua = m.group(1).replace("\\'", "'").replace("\\\\", "\\")
            props = {k: (v if v is not None else w) for k, v, w in prop.findall(m.group(2))}
            kind, platform = props.get("Browser_Type"), props.get("Platform", "unknown")
            if kind is None or kind == "unknown" or not usable(ua, seen, corpus):
                continue
            seen.add(ua)
            label = "bot" if kind in ("Bot", "Bot/Crawler", "Feed Reader", "Tool", "Offline Browser") else "human"
            if platform == "Android":
                ours = "android"
            elif platform in ("iOS", "iPadOS"):
                ours = "ios"
            elif (platform.startswith("Win") and not platform.startswith(("WinPhone", "WinCE", "WinMobile"))
                  and platform != "WinRT") or platform in (
                      "MacOSX", "macOS", "MacPPC", "Linux", "Ubuntu", "ChromeOS", "Debian", "Fedora"):
                ours = "desktop"
            else:
                ours = "other"
            rows.append((label, ours if label == "human" else "other", f"{kind}:{platform}", ua))
    # Plain browsers are four in five of the tests and the best-known family: one in five of them, by
    # sorted User-Agent, and every other row.
    browsers = sorted((r for r in rows if r[2].startswith("Browser:")), key=lambda r: r[3])
    kept = [r for r in rows if not r[2].startswith("Browser:")] + browsers[::5]
    return sorted(kept, key=lambda r: r[3])


def yauaa(root, corpus):
    """analyzer/src/main/resources/UserAgents/*.yaml: the tests whose only input is a User-Agent."""
    rows, seen = [], set()
    for path in sorted(glob.glob(os.path.join(root, "analyzer", "src", "main", "resources", "UserAgents", "*.yaml"))):
        config = (yaml.safe_load(open(path, encoding="utf-8")) or {}).get("config") or []
        for item in config:
            if not isinstance(item, dict) or "test" not in item:
                continue
            given, expected = item["test"].get("input") or {}, item["test"].get("expected") or {}
            if not isinstance(given, dict) or set(given) != {"User-Agent"}:
                continue
            ua = given["User-Agent"]
            if not usable(ua, seen, corpus):
                continue
            seen.add(ua)
            agent, device, os_name = expected.get("AgentClass"), expected.get("DeviceClass"), expected.get("OperatingSystemName")
            if agent in ("Robot", "Robot Mobile", "Hacker", "Server", "Cloud Application") or device in (
                    "Robot", "Robot Mobile", "Robot Imitator", "Hacker", "Cloud"):
                label, platform = "bot", "other"
            elif device == "Unknown" or agent == "Unknown":
                continue
            else:
                label = "human"
                if os_name in ("Android", "FireOS"):
                    platform = "android"
                elif os_name in ("iOS", "iPadOS"):
                    platform = "ios"
                elif desktop_name(os_name) and device in ("Desktop", "Anonymized"):
                    platform = "desktop"
                else:
                    platform = "other"
            rows.append((label, platform, f"{os.path.basename(path)}:{agent}:{device}:{os_name}", ua))
    return rows


def woothee(root, corpus):
    """testsets/*.yaml except blank.yaml: crawlers and "misc" (feed readers, tools) are bots."""
    rows, seen = [], set()
    for path in sorted(glob.glob(os.path.join(root, "testsets", "*.yaml"))):
        base = os.path.basename(path)[:-5]
        if base == "blank":
            continue
        for item in yaml.safe_load(open(path, encoding="utf-8")) or []:
            ua = item.get("target")
            if not usable(ua, seen, corpus):
                continue
            seen.add(ua)
            category, os_name = item.get("category"), item.get("os", "")
            label = "bot" if category in ("crawler", "misc") else "human"
            platform = {"iPhone": "ios", "iPad": "ios", "iPod": "ios", "Android": "android"}.get(
                os_name, "desktop" if category == "pc" else "other")
            rows.append((label, platform if label == "human" else "other", f"{base}:{item.get('name')}:{os_name}", ua))
    return rows


def write(name, rows):
    with open(os.path.join(HERE, name + ".tsv"), "w", encoding="utf-8") as f:
        f.write(HEADER)
        for row in rows:
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    corpus = corpus_strings()
    write("browscap", browscap(sys.argv[1], corpus))
    write("yauaa", yauaa(sys.argv[2], corpus))
    write("woothee", woothee(sys.argv[3], corpus))
