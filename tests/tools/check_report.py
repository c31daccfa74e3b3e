#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Checks a Tidemark HTML report on its own terms and prints what it holds.

Fails (exit 1, reason on stderr) unless the file is well-formed HTML (every
non-void element closed in order), declares <html lang>, loads nothing from
outside (no script, link, iframe, or src/href other than data: and #), and
every image is a PNG data URI that decodes completely (chunk CRCs, IHDR,
the zlib stream of the IDATs, scanline size and filters).

Prints JSON: {"lang", "title", "images": [[w, h], ...], "sections":
{id: text}, "headings": {id: h2 text}, "text"} with text whitespace-folded.

usage: check_report.py REPORT.html > summary.json
"""
import base64
import html.parser
import json
import re
import struct
import sys
import zlib

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link",
        "meta", "source", "track", "wbr"}


def fail(msg):
    sys.stderr.write("check_report: %s\n" % msg)
    sys.exit(1)


def check_png(data):
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail("image is not a PNG")
    pos, idat, ihdr, end = 8, b"", None, False
    while pos < len(data):
        if pos + 8 > len(data):
            fail("PNG chunk header cut short")
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = data[pos + 8 + length:pos + 12 + length]
        if len(body) != length or len(crc) != 4:
            fail("PNG chunk %r cut short" % kind)
        if zlib.crc32(kind + body) & 0xFFFFFFFF != struct.unpack(">I", crc)[0]:
            fail("PNG chunk %r has a bad CRC" % kind)
        if kind == b"IHDR":
            ihdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            end = True
            break
        pos += 12 + length
    if ihdr is None or not end:
        fail("PNG without IHDR or IEND")
    w, h, depth, color, _, _, interlace = ihdr
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[color]
    if depth != 8 or interlace != 0:
        fail("unexpected PNG depth/interlace %d/%d" % (depth, interlace))
    raw = zlib.decompress(idat)
    stride = w * channels + 1
    if len(raw) != stride * h:
        fail("PNG pixel data is %d bytes, not %d" % (len(raw), stride * h))
    if any(raw[y * stride] > 4 for y in range(h)):
        fail("PNG scanline with an unknown filter")
    return [w, h]


class Report(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.lang, self.title = [], None, ""
        self.images, self.sections, self.headings = [], {}, {}
        self.text, self.section, self.in_h2, self.in_title = [], None, False, False
        self.section_depth = 0
        self.in_style = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "link", "iframe", "object", "embed"):
            fail("<%s> in a self-contained report" % tag)
        for key in ("src", "href"):
            v = a.get(key)
            if v is not None and not (v.startswith("data:") or v.startswith("#")):
                fail("external resource %s=%r" % (key, v[:80]))
        if tag == "html":
            self.lang = a.get("lang")
        if tag == "img":
            m = re.match(r"data:image/png;base64,(.*)$", a.get("src", ""), re.S)
            if not m:
                fail("image that is not a PNG data URI")
            self.images.append(check_png(base64.b64decode(m.group(1), validate=True)))
        if tag == "section":
            if self.section is None:
                self.section, self.section_depth = a.get("id", ""), len(self.stack)
                self.sections[self.section] = []
        if tag == "h2":
            self.in_h2 = True
            if self.section is not None:
                self.headings[self.section] = ""
        if tag == "title":
            self.in_title = True
        if tag == "style":
            self.in_style = True
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            fail("</%s> closes <%s>" % (tag, self.stack[-1] if self.stack else "nothing"))
        self.stack.pop()
        if tag == "section" and self.section is not None and len(self.stack) == self.section_depth:
            self.section = None
        if tag == "h2":
            self.in_h2 = False
        if tag == "title":
            self.in_title = False
        if tag == "style":
            self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            return
        self.text.append(data)
        if self.section is not None:
            self.sections[self.section].append(data)
            if self.in_h2 and self.section in self.headings:
                self.headings[self.section] += data
        if self.in_title:
            self.title += data


def fold(parts):
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def main():
    src = open(sys.argv[1], encoding="utf-8").read()
    if not src.lstrip().lower().startswith("<!doctype html>"):
        fail("no <!DOCTYPE html>")
    p = Report()
    p.feed(src)
    p.close()
    if p.stack:
        fail("unclosed elements: %s" % p.stack)
    if not p.lang:
        fail("<html> without lang")
    json.dump({"lang": p.lang, "title": p.title.strip(), "images": p.images,
               "sections": {k: fold(v) for k, v in p.sections.items()},
               "headings": {k: fold([v]) for k, v in p.headings.items()},
               "text": fold(p.text)}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
