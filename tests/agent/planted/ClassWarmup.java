// SPDX-License-Identifier: GPL-3.0-or-later
// Planted shape for docs/windows.md, "Checked against real programs".
import java.lang.reflect.*;
import java.util.*;
// Leak-free: class loading and JIT warm-up (3000 proxy classes from throwaway loaders, reflection, lambdas) in the first 20% of the run, then a steady loop.
public class ClassWarmup {
  public interface Svc { int call(int x); }
  static volatile Object sink;
  public static void main(String[] a) throws Exception {
    long start = System.currentTimeMillis(), len = Integer.parseInt(a[0]) * 1000L;
    int n = 0;
    while (System.currentTimeMillis() - start < len) {
      if (System.currentTimeMillis() - start < len / 5 && n < 3000) {
        ClassLoader cl = new ClassLoader(ClassWarmup.class.getClassLoader()) {};
        Svc s = (Svc) Proxy.newProxyInstance(cl, new Class<?>[] { Svc.class }, (p, m, args) -> (Integer) args[0] + 1);
        sink = s.call(n++);
        for (Method m : String.class.getMethods()) sink = m.getName();
      }
      for (int i = 0; i < 400; i++) sink = new byte[150];
      Thread.sleep(1);
    }
    System.out.println(n);
  }
}
