// SPDX-License-Identifier: GPL-3.0-or-later
//
// Dies of an OutOfMemoryError (Java heap) with the leak held by a static
// field, so the heap stays full after main has died: the launcher's
// DestroyJavaVM cannot attach its thread (that needs a Thread object) and
// the process exits without VMDeath.  The recording must still end well.

import java.util.HashMap;
import java.util.Map;

public final class OomStatic {
    static final Map<Integer, byte[]> INDEX = new HashMap<>();
    static volatile Object junk;

    public static void main(String[] args) {
        System.out.println("OomStatic");
        for (int k = 0; ; k++) {
            for (int i = 0; i < 50; i++)
                junk = new byte[256];
            INDEX.put(k, new byte[8000]);
        }
    }
}
