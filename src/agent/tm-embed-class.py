#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# Compiles one Java source with javac and writes its class file as a C
# byte array: tm-embed-class.py JAVAC SOURCE OUTPUT.c SYMBOL
import os
import subprocess
import sys
import tempfile

javac, source, output, symbol = sys.argv[1:5]
with tempfile.TemporaryDirectory() as tmp:
    subprocess.run([javac, '--release', '17', '-Xlint:all', '-Werror', '-d', tmp, source], check=True)
    name = os.path.splitext(os.path.basename(source))[0] + '.class'
    data = open(os.path.join(tmp, name), 'rb').read()
with open(output, 'w') as out:
    out.write('/* SPDX-License-Identifier: GPL-3.0-or-later */\n')
    out.write('/* Generated from %s by tm-embed-class.py; do not edit. */\n' % os.path.basename(source))
    out.write('extern const unsigned char %s[];\n' % symbol)
    out.write('extern const unsigned int %s_len;\n' % symbol)
    out.write('const unsigned char %s[] = {\n' % symbol)
    for i in range(0, len(data), 16):
        out.write('  ' + ', '.join('0x%02x' % b for b in data[i:i + 16]) + ',\n')
    out.write('};\n')
    out.write('const unsigned int %s_len = %d;\n' % (symbol, len(data)))
