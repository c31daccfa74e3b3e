import java.util.*;
public class Fill {
  public static void main(String[] a) {
    List<byte[]> keep = new ArrayList<>();
    long end = System.currentTimeMillis() + Long.parseLong(a[0]);
    try {
      while (System.currentTimeMillis() < end) { keep.add(new byte[1024]); if (keep.size() > 27000) keep.subList(0, 1000).clear(); }
    } catch (OutOfMemoryError e) { keep = null; System.out.println("oom"); }
  }
}
