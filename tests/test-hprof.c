/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HPROF importer: hand-written dumps with ids of 4 and 8 bytes, HEAP DUMP
 * and HEAP DUMP SEGMENT records, every root kind (tests/hprof-test-writer.h),
 * with sizes, retained sizes and a labelled path to a static root known
 * by construction; gzip; damage and every cut; and dumps of a real JVM
 * (tests/hprof/HprofProbe.java, dumped with jcmd) with known counts, a
 * known retained size, a path through a static field and a growing map.
 */
#include <string.h>
#include <unistd.h>
#include <sys/wait.h>
#include <glib/gstdio.h>

#include "tidemark.h"
#include "tm-heap-analysis.h"
#include "tm-dominators.h"
#include "hprof-test-writer.h"
#include "tm-hprof-private.h"
#include "tm-classify-chain.h"
#include "tm-root-classify.h"

static char *tmpdir;

static char *
write_file (const char *name, GBytes *bytes)
{
  return hw_file_in (tmpdir, name, bytes);
}

static GBytes *
gzip (GBytes *in)
{
  g_autoptr(GZlibCompressor) z = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, 6);
  gsize n = g_bytes_get_size (in) * 2 + 1024, rd = 0, wr = 0;
  guint8 *out = g_malloc (n);
  GConverterResult r = g_converter_convert (G_CONVERTER (z), g_bytes_get_data (in, NULL), g_bytes_get_size (in),
                                            out, n, G_CONVERTER_INPUT_AT_END, &rd, &wr, NULL);
  g_assert_cmpint (r, ==, G_CONVERTER_FINISHED);
  return g_bytes_new_take (out, wr);
}

/* object index of the object of type `type` whose size is `size`, or the
 * only one of its type (size 0) */
static guint64
object_of_type (const TmTrace *t, const char *type, guint n_expected)
{
  guint64 found = G_MAXUINT64;
  guint n = 0;

  for (guint64 i = 0; i < t->n_objects; i++)
    if (strcmp (tm_trace_type (t, t->obj_type[i])->name, type) == 0)
      {
        if (found == G_MAXUINT64)
          found = i;
        n++;
      }
  g_assert_cmpuint (n, ==, n_expected);
  return found;
}

static guint
live_of_type (TmTrace *t, guint32 gc, const char *type)
{
  guint n = 0;

  for (guint64 i = 0; i < t->n_objects; i++)
    if (tm_trace_object_alive_after (t, i, gc) && strcmp (tm_trace_type (t, t->obj_type[i])->name, type) == 0)
      n++;
  return n;
}

static guint64
retained_of (TmHeapAnalysis *h, guint64 object)
{
  guint32 n, node;
  const guint32 *objects = tm_heap_analysis_get_objects (h, &n);
  const TmDominatorTree *dom = tm_heap_analysis_get_dominators (h);

  g_assert_true (tm_heap_graph_node_for_object (tm_heap_analysis_get_graph (h), (guint32) object, &node));
  g_assert_cmpuint (objects[node], ==, object);
  g_assert_cmpuint (dom->position[node], !=, 0);
  return dom->retained_bytes[dom->position[node]];
}

/* "root label -> edge -> edge ..." of the shortest path to a root */
static char *
path_text (TmHeapAnalysis *h, guint64 object)
{
  const TmHeapGraph *g = tm_heap_analysis_get_graph (h);
  g_autoptr(GString) s = g_string_new (NULL);
  g_autoptr(GArray) path = NULL;
  guint32 node;
  guint kind = 0;

  g_assert_true (tm_heap_graph_node_for_object (g, (guint32) object, &node));
  path = tm_heap_analysis_path_to_root (h, node, &kind, NULL);
  g_assert_nonnull (path);
  g_assert_cmpuint (path->len, >, 0);
  g_string_append_printf (s, "%s(%s)", tm_heap_graph_root_label (g, g_array_index (path, guint32, 0)),
                          tm_root_kind_to_string (kind));
  for (guint i = 1; i < path->len; i++)
    {
      g_autofree char *l = tm_heap_graph_edge_label (g, g_array_index (path, guint32, i - 1),
                                                     g_array_index (path, guint32, i));
      g_string_append_printf (s, " -> %s", l ? l : "?");
    }
  return g_strdup (s->str);
}

/* The tree of `h` by root-path (then type when `by_type`). */
static TmClassTree *
root_tree (TmHeapAnalysis *h, gboolean by_type)
{
  g_autoptr(GError) error = NULL;
  TmClassifier chain[] = { TM_CLASSIFIER_ROOT_PATH, TM_CLASSIFIER_TYPE };
  TmClassTree *tree = tm_classify_chain_tree (NULL, h, chain, by_type ? 2 : 1, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (tree);
  return tree;
}

/* objects and bytes of the group `path` ("label" or "label/child") */
static void
assert_group (TmClassTree *tree, const char *path, guint64 objects, guint64 bytes)
{
  guint32 node = tm_class_tree_find_path (tree, path);

  if (node == TM_CLASS_NODE_NONE)
    g_error ("no group %s", path);
  g_assert_cmpuint (tm_class_tree_node (tree, node)->m.objects, ==, objects);
  if (bytes != G_MAXUINT64)
    g_assert_cmpuint (tm_class_tree_node (tree, node)->m.bytes, ==, bytes);
}

/* ---- hand-written dumps ------------------------------------------------ */

static void
check_test_heap (TmTrace *t, guint id_size)
{
  /* sizes by the documented model (tm-hprof-parse.c, docs/importers.md) */
  const guint64 node = id_size == 8 ? 24 : 16, total = id_size == 8 ? 288 : 208;
  const guint64 retained_r = id_size == 8 ? 96 : 72;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmHeapAnalysis) h = NULL;
  g_autofree char *path = NULL;
  const TmGc *gc;
  guint64 r, n2;

  g_assert_cmpstr (t->format, ==, "hprof");
  g_assert_cmpuint (t->pointer_size, ==, id_size);
  g_assert_cmpuint (t->start_unix_ns, ==, G_GUINT64_CONSTANT (1700000000000) * 1000000);
  g_assert_cmpuint (t->n_objects, ==, 12);
  g_assert_cmpuint (tm_trace_n_gcs (t), ==, 1);
  gc = tm_trace_gc (t, 1);
  g_assert_true (gc->has_graph);
  g_assert_cmpuint (gc->end_ns, ==, 5000 * 1000);   /* the record's time, in µs */
  g_assert_cmpuint (gc->used_after, ==, total);
  g_assert_cmpuint (gc->reachable_bytes, ==, total - node);   /* G is garbage */
  g_assert_cmpuint (gc->live_objects, ==, 11);
  g_assert_cmpuint (live_of_type (t, 1, "com.example.Node"), ==, 3);
  g_assert_cmpuint (live_of_type (t, 1, "java.lang.Class"), ==, 4);
  g_assert_cmpuint (live_of_type (t, 1, "com.example.Node[]"), ==, 1);
  g_assert_cmpuint (live_of_type (t, 1, "int[]"), ==, 1);
  g_assert_cmpuint (tm_trace_object_size (t, object_of_type (t, "int[]", 1)), ==, 56);
  g_assert_true (tm_trace_type (t, t->obj_type[object_of_type (t, "com.example.Node[]", 1)])->flags & TM_TYPE_FLAG_REF_ARRAY);
  g_assert_cmpuint (t->obj_site[object_of_type (t, "int[]", 1)], ==, TM_UNKNOWN);
  /* superclasses from the class dumps */
  {
    const TmType *node_type = tm_trace_type (t, t->obj_type[object_of_type (t, "com.example.Node", 4)]);
    g_assert_cmpstr (tm_trace_type (t, node_type->super)->name, ==, "java.lang.Object");
  }

  h = tm_heap_analysis_new (t, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  r = object_of_type (t, "com.example.Registry", 1);
  g_assert_cmpuint (retained_of (h, r), ==, retained_r);
  /* N2: reached through A[1] and N1.next; the shortest path is through A */
  n2 = object_of_type (t, "com.example.Node", 4) + 1;
  path = path_text (h, n2);
  g_assert_cmpstr (path, ==, "com.example.Registry.INSTANCE(static field) -> items -> [1]");
  {
    /* the same through TmRootPath: one field per hop, the owning class */
    g_autoptr(TmRootPath) rp = NULL;
    guint32 item;

    g_assert_true (tm_heap_graph_node_for_object (tm_heap_analysis_get_graph (h), (guint32) n2, &item));
    rp = tm_root_path_new (h, item, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (rp->objects->len, ==, 3);
    g_assert_cmpuint (rp->fields->len, ==, 3);
    g_assert_cmpuint (rp->root_kind, ==, TM_ROOT_KIND_STATIC);
    g_assert_cmpstr (rp->root_name, ==, "com.example.Registry.INSTANCE");
    g_assert_cmpstr (rp->root_class, ==, "com.example.Registry");
    g_assert_null (g_ptr_array_index (rp->fields, 0));
    g_assert_cmpstr (g_ptr_array_index (rp->fields, 1), ==, "items");
    g_assert_cmpstr (g_ptr_array_index (rp->fields, 2), ==, "[1]");
  }
  {
    /* every root kind arrived */
    const TmHeapGraph *g = tm_heap_analysis_get_graph (h);
    guint kinds = 0;
    for (guint32 i = 0; i < g->n_roots; i++)
      kinds |= 1u << g->root_kind[i];
    for (guint k = TM_ROOT_KIND_STATIC; k <= TM_ROOT_KIND_OTHER7; k++)
      g_assert_true (kinds & (1u << k));
  }
}

static TmTrace *
load (const char *path)
{
  g_autoptr(GError) error = NULL;
  TmTrace *t = tm_trace_load (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (t);
  return t;
}

static void
test_written (gconstpointer data)
{
  guint variant = GPOINTER_TO_UINT (data);
  guint id_size = variant & 1 ? 8 : 4;
  gboolean segments = (variant & 2) != 0;
  g_autoptr(GBytes) bytes = hw_test_heap (id_size, segments, FALSE);
  g_autoptr(GBytes) gz = gzip (bytes);
  g_autofree char *plain = write_file ("t.hprof", bytes);
  g_autofree char *zipped = write_file ("t.hprof.gz", gz);
  g_autoptr(TmTrace) t = load (plain);
  g_autoptr(TmTrace) tz = load (zipped);

  g_assert_cmpstr (tm_trace_detect_format (plain, NULL), ==, "hprof");
  g_assert_cmpstr (tm_trace_detect_format (zipped, NULL), ==, "hprof");
  g_assert_true (t->complete);
  g_assert_cmpuint (t->warnings->len, ==, 0);
  check_test_heap (t, id_size);
  g_assert_true (tz->complete);
  check_test_heap (tz, id_size);
}

#define MANY_N 600000u

/* A chain of MANY_N nodes with an array of all of them in the middle of
 * the dump, every 1000th link pointing outside the dump (`far`: 448 GiB
 * up, unaligned, which 4-byte targets cannot hold, so they are widened to
 * 8 halfway; else just past the nodes); *dangling gets their count. */
static GBytes *
many_dump (gboolean far, guint64 *dangling)
{
  const guint32 n = MANY_N;
  const guint64 node_class = 0x108, array_class = 0x118, array = 0x10;
  const guint64 dangle = far ? 0x7000000000 : 0x100000 + 16 * (guint64) n + 0x1000;
  HwField next_field[] = { { 21, 2, 0 } };
  g_autofree guint64 *elems = g_new (guint64, n);
  HprofW w;

  *dangling = 0;
  hw_begin (&w, 8, TRUE, 1000);
  hw_utf8 (&w, 11, "java/lang/Object");
  hw_utf8 (&w, 12, "Node");
  hw_utf8 (&w, 14, "[LNode;");
  hw_utf8 (&w, 21, "next");
  hw_load_class (&w, 1, HW_OBJECT, 11);
  hw_load_class (&w, 2, node_class, 12);
  hw_load_class (&w, 3, array_class, 14);
  hw_heap_begin (&w, 0);
  hw_class_dump (&w, HW_OBJECT, 0, 0, 0, NULL, 0, NULL, 0);
  hw_class_dump (&w, node_class, HW_OBJECT, 0, 8, NULL, 0, next_field, 1);
  hw_class_dump (&w, array_class, HW_OBJECT, 0, 0, NULL, 0, NULL, 0);
  hw_u1 (&w, 0x01); hw_id (&w, array); hw_id (&w, 0x9999);     /* JNI global */
  for (guint32 i = 0; i < n; i++)
    elems[i] = 0x100000 + 16 * (guint64) i;
  for (guint32 i = 0; i < n; i++)
    {
      guint64 next = i + 1 == n ? 0 : i % 1000 == 999 ? dangle + (far ? i : 16 * (guint64) i) : elems[i + 1];
      if (i == n / 2)
        hw_obj_array (&w, array, array_class, elems, n);   /* refers forward too */
      hw_instance (&w, elems[i], node_class, 8);
      hw_id (&w, next);
      *dangling += next >= dangle;
    }
  hw_heap_end (&w);
  hw_finish (&w);
  return g_byte_array_free_to_bytes (w.out);
}

/* Enough references (1.2 M) that they are resolved in two halves at once
 * (many_dump): counts, edges and their labels on both sides of the
 * middle are known. */
static void
test_many_references (gconstpointer data)
{
  const guint32 n = MANY_N;
  g_autoptr(TmTrace) t = NULL;
  g_autoptr(TmHeapGraph) g = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL, *label = NULL;
  guint64 dangling = 0;
  guint32 va, v1, v2, at[] = { 17, n / 2 + 1234, n - 3 };

  bytes = many_dump (GPOINTER_TO_UINT (data), &dangling);
  path = write_file ("many.hprof", bytes);
  t = load (path);

  g_assert_cmpuint (t->n_objects, ==, n + 1 + 3);
  label = g_strdup_printf ("%" G_GUINT64_FORMAT, dangling);
  g_assert_cmpstr (g_hash_table_lookup (t->meta, "hprof.dangling_references"), ==, label);
  g_clear_pointer (&label, g_free);
  g_assert_cmpuint (dangling, ==, (n - 1) / 1000);
  /* every node through the array, the array, the class objects */
  g_assert_cmpuint (tm_trace_gc (t, 1)->reachable_objects, ==, n + 1 + 3);

  g = tm_heap_graph_read (t, 1, NULL, &error);
  g_assert_no_error (error);
  /* array -> every node, node -> next (not the dangling ones), two
   * classes -> their superclass */
  g_assert_cmpuint (g->n_edges, ==, n + (n - 1 - dangling) + 2);
  g_assert_true (tm_heap_graph_node_for_object (g, 3 + n / 2, &va));   /* objects: 3 classes, n/2 nodes, the array */
  for (guint k = 0; k < G_N_ELEMENTS (at); k++)
    {
      guint32 i = at[k], row = 3 + i + (i >= n / 2 ? 1 : 0);
      g_autofree char *want = g_strdup_printf ("[%u]", i);
      g_assert_true (tm_heap_graph_node_for_object (g, row, &v1));
      g_assert_true (tm_heap_graph_node_for_object (g, row + 1 + (i + 1 == n / 2), &v2));
      label = tm_heap_graph_edge_label (g, va, v1);
      g_assert_cmpstr (label, ==, want);
      g_clear_pointer (&label, g_free);
      label = tm_heap_graph_edge_label (g, v1, v2);
      g_assert_cmpstr (label, ==, "next");
      g_clear_pointer (&label, g_free);
    }
}

static void
test_unknown_subrecord (void)
{
  g_autoptr(GBytes) bytes = hw_test_heap (8, TRUE, TRUE);
  g_autofree char *path = write_file ("u.hprof", bytes);
  g_autoptr(TmTrace) t = load (path);
  const TmWarning *w;

  /* everything before is read, the record after it too (HEAP DUMP END) */
  g_assert_false (t->complete);
  g_assert_cmpuint (t->n_objects, ==, 12);
  g_assert_cmpuint (t->warnings->len, >=, 1);
  w = &g_array_index (t->warnings, TmWarning, 0);
  g_assert_nonnull (strstr (w->message, "unknown heap dump sub-record 0x77 at byte offset"));
  g_assert_cmpuint (w->offset, >, 0);
  check_test_heap (t, 8);
}

/* Every cut of the file opens (or is refused as a damaged header) and
 * says where it stopped; nothing crashes, objects only grow with length. */
static void
test_every_cut (void)
{
  g_autoptr(GBytes) bytes = hw_test_heap (8, TRUE, FALSE);
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  guint64 prev = 0;

  for (gsize len = 0; len < size; len++)
    {
      g_autoptr(GBytes) cut = g_bytes_new (data, len);
      g_autofree char *path = write_file ("cut.hprof", cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(TmTrace) t = tm_trace_load (path, NULL, NULL, NULL, &error);

      if (t == NULL)
        {
          g_assert_nonnull (error);
          g_assert_cmpuint (len, <, 40);   /* only the header can make a file unusable */
          continue;
        }
      g_assert_false (t->complete);
      g_assert_cmpuint (t->stop_offset, <=, len);
      g_assert_cmpuint (t->n_objects, >=, prev);
      prev = t->n_objects;
      for (guint gc = 1; gc <= tm_trace_n_gcs (t); gc++)
        if (tm_trace_gc (t, gc)->has_graph)
          {
            g_autoptr(TmHeapGraph) g = tm_heap_graph_read (t, gc, NULL, &error);
            g_assert_no_error (error);
            g_assert_cmpuint (g->n_nodes, ==, tm_trace_gc (t, gc)->live_objects);
          }
    }
  g_assert_cmpuint (prev, ==, 12);
}

static void
test_cut_gzip (void)
{
  g_autoptr(GBytes) bytes = hw_test_heap (8, FALSE, FALSE);
  g_autoptr(GBytes) gz = gzip (bytes);
  g_autoptr(GBytes) cut = g_bytes_new_from_bytes (gz, 0, g_bytes_get_size (gz) - 20);
  g_autofree char *path = write_file ("cut.hprof.gz", cut);
  g_autoptr(TmTrace) t = load (path);

  g_assert_false (t->complete);
  g_assert_cmpuint (t->warnings->len, >=, 1);
  g_assert_nonnull (strstr (g_array_index (t->warnings, TmWarning, t->warnings->len - 1).message, "byte offset"));
}

/* ---- a real JVM ----------------------------------------------------------- */

typedef struct {
  GPid pid;
  int  in, out;
} Jvm;

static gboolean
read_ready (Jvm *j)
{
  char buf[64];
  gsize n = 0;

  while (n < sizeof buf - 1)
    {
      ssize_t got = read (j->out, buf + n, 1);
      if (got <= 0)
        return FALSE;
      if (buf[n++] == '\n')
        break;
    }
  buf[n] = 0;
  return g_str_has_prefix (buf, "READY");
}

static void
jcmd_dump (Jvm *j, const char *path, gboolean gz)
{
  g_autofree char *pid = g_strdup_printf ("%d", (int) j->pid);
  const char *argv[] = { "jcmd", pid, "GC.heap_dump", gz ? "-gz=1" : path, gz ? path : NULL, NULL };
  int status = -1;
  g_autoptr(GError) error = NULL;

  g_unlink (path);
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                               NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
}

static char *jvm_dump1, *jvm_dump2;

/* Runs the probe once, dumping it plain, then gzip after it grew. */
static gboolean
make_jvm_dumps (void)
{
  g_autofree char *src = g_test_build_filename (G_TEST_DIST, "hprof", "HprofProbe.java", NULL);
  g_autofree char *java = g_find_program_in_path ("java");
  g_autofree char *javac = g_find_program_in_path ("javac");
  g_autofree char *jcmd = g_find_program_in_path ("jcmd");
  const char *javac_argv[] = { "javac", "-d", tmpdir, src, NULL };
  const char *java_argv[] = { "java", "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-cp", tmpdir, "HprofProbe", NULL };
  g_autoptr(GError) error = NULL;
  int status = -1;
  Jvm j;

  if (java == NULL || javac == NULL || jcmd == NULL)
    return FALSE;
  g_assert_true (g_spawn_sync (NULL, (char **) javac_argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (g_spawn_async_with_pipes (NULL, (char **) java_argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &j.pid, &j.in, &j.out, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (read_ready (&j));
  jvm_dump1 = g_build_filename (tmpdir, "probe1.hprof", NULL);
  jvm_dump2 = g_build_filename (tmpdir, "probe2.hprof.gz", NULL);
  jcmd_dump (&j, jvm_dump1, FALSE);
  g_assert_cmpint (write (j.in, "\n", 1), ==, 1);
  g_assert_true (read_ready (&j));
  jcmd_dump (&j, jvm_dump2, TRUE);
  close (j.in);
  close (j.out);
  waitpid (j.pid, &status, 0);
  g_spawn_close_pid (j.pid);
  return TRUE;
}

static void
test_jvm (void)
{
  g_autoptr(TmTrace) t = NULL;
  g_autoptr(TmHeapAnalysis) h = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *path = NULL;

  if (jvm_dump1 == NULL)
    {
      g_test_skip ("no JDK (java, javac, jcmd) on PATH");
      return;
    }
  t = load (jvm_dump1);
  g_assert_true (t->complete);
  g_assert_cmpuint (t->pointer_size, ==, 8);
  /* counts from HprofProbe.java */
  g_assert_cmpuint (live_of_type (t, 1, "HprofProbe$Leaf"), ==, 1000);
  g_assert_cmpuint (live_of_type (t, 1, "HprofProbe$Marker"), ==, 777);
  g_assert_cmpuint (live_of_type (t, 1, "HprofProbe$Payload"), ==, 3);
  g_assert_cmpuint (live_of_type (t, 1, "HprofProbe$Entry"), ==, 500);
  g_assert_cmpuint (tm_trace_object_size (t, object_of_type (t, "HprofProbe$Leaf", 1000)), ==, 24);
  g_assert_cmpuint (tm_trace_object_size (t, object_of_type (t, "HprofProbe$Marker", 777)), ==, 16);
  /* the hierarchy, through a class with no instances of its own */
  {
    const TmType *map = tm_trace_type (t, t->obj_type[object_of_type (t, "HprofProbe$Holder", 1)]);
    guint32 hm = G_MAXUINT32, obj = G_MAXUINT32;
    g_assert_cmpstr (tm_trace_type (t, map->super)->name, ==, "java.lang.Object");
    for (guint32 i = 1; i < t->types->len; i++)
      {
        if (strcmp (tm_trace_type (t, i)->name, "java.util.HashMap") == 0)
          hm = i;
        if (strcmp (tm_trace_type (t, i)->name, "java.lang.Object") == 0)
          obj = i;
      }
    g_assert_cmpuint (hm, !=, G_MAXUINT32);
    g_assert_cmpstr (tm_trace_type (t, tm_trace_type (t, hm)->super)->name, ==, "java.util.AbstractMap");
    g_assert_true (tm_trace_type_is_a (t, hm, obj));
    g_assert_true (t->complete);
  }

  h = tm_heap_analysis_new (t, 1, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  /* Holder 24 + Object[1000] 4016 + 1000 Leafs of 24, by the model */
  g_assert_cmpuint (retained_of (h, object_of_type (t, "HprofProbe$Holder", 1)), ==, 24 + 4016 + 1000 * 24);
  /* a Payload: static field cache -> HashMap.table -> [i] -> Node.value */
  path = path_text (h, object_of_type (t, "HprofProbe$Payload", 3));
  g_assert_true (g_str_has_prefix (path, "HprofProbe.cache(static field) -> table -> ["));
  g_assert_true (g_str_has_suffix (path, "] -> value"));

  /* by root path: each static field of the probe, and what its object
   * holds through its first field (sizes from HprofProbe.java) */
  {
    g_autoptr(TmClassTree) tree = root_tree (h, TRUE);
    assert_group (tree, "HprofProbe.holder", 1, 24);
    assert_group (tree, "HprofProbe.holder.items", 1001, 4016 + 1000 * 24);
    assert_group (tree, "HprofProbe.holder.items/HprofProbe$Leaf", 1000, 24000);
    assert_group (tree, "HprofProbe.markers", 1, 16 + 777 * 4 + 4);
    assert_group (tree, "HprofProbe.markers[]", 777, 777 * 16);
    assert_group (tree, "HprofProbe.cache.table/HprofProbe$Payload", 3, 3 * 16);
    assert_group (tree, "HprofProbe.growing.table/HprofProbe$Entry", 500, 500 * 24);
  }
}

static void
test_jvm_gzip_growth (void)
{
  g_autoptr(TmTrace) t = NULL;
  g_autoptr(TmTrace) two = NULL;
  g_autoptr(GError) error = NULL;
  const char *paths[2];

  if (jvm_dump2 == NULL)
    {
      g_test_skip ("no JDK (java, javac, jcmd) on PATH");
      return;
    }
  t = load (jvm_dump2);
  g_assert_true (t->complete);
  g_assert_cmpuint (live_of_type (t, 1, "HprofProbe$Entry"), ==, 2500);
  g_assert_cmpuint (live_of_type (t, 1, "HprofProbe$Leaf"), ==, 1000);
  {
    g_autoptr(TmHeapAnalysis) h = tm_heap_analysis_new (t, 1, NULL, NULL, NULL, &error);
    g_autoptr(TmClassTree) tree = NULL;
    g_assert_no_error (error);
    tree = root_tree (h, TRUE);
    assert_group (tree, "HprofProbe.growing.table/HprofProbe$Entry", 2500, 2500 * 24);
    assert_group (tree, "HprofProbe.holder.items", 1001, 4016 + 1000 * 24);
  }

  /* both dumps, given in reverse order: a timeline in time order */
  paths[0] = jvm_dump2;
  paths[1] = jvm_dump1;
  two = tm_hprof_import_many (paths, 2, NULL, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (two->complete);
  g_assert_cmpuint (tm_trace_n_gcs (two), ==, 2);
  g_assert_cmpuint (tm_trace_gc (two, 1)->end_ns, <=, tm_trace_gc (two, 2)->end_ns);
  g_assert_cmpuint (live_of_type (two, 1, "HprofProbe$Entry"), ==, 500);
  g_assert_cmpuint (live_of_type (two, 2, "HprofProbe$Entry"), ==, 2500);
  g_assert_cmpuint (live_of_type (two, 2, "HprofProbe$Leaf"), ==, 1000);
  g_assert_cmpuint (tm_trace_gc (two, 2)->used_after, >, tm_trace_gc (two, 1)->used_after);
  {
    g_autoptr(TmHeapGraph) g = tm_heap_graph_read (two, 2, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpuint (g->n_nodes, ==, tm_trace_gc (two, 2)->live_objects);
  }
}

/* Cancelling once reading is done (the references being resolved or
 * handed over) still stops the import; progress never goes back. */
typedef struct {
  GCancellable *cancel;       /* NULL: only watch */
  double        at, last;
  gboolean      backwards;
  double        cancelled_at;
  guint         marking;      /* reports while marking the graph */
} CancelAt;

static void
cancel_at_progress (double fraction, gpointer data)
{
  CancelAt *c = data;

  c->backwards |= fraction < c->last;
  c->last = fraction;
  c->marking += fraction > 0.85 && fraction < 0.985;
  if (c->cancel != NULL && fraction >= c->at && !g_cancellable_is_cancelled (c->cancel))
    {
      c->cancelled_at = fraction;
      g_cancellable_cancel (c->cancel);
    }
}

static void
test_jvm_cancel_late (void)
{
  /* resolving (0.77-0.85 of the progress), then marking from 0.85 */
  const double at[] = { 0.5, 0.8, 0.85 };

  if (jvm_dump2 == NULL)
    {
      g_test_skip ("no JDK (java, javac, jcmd) on PATH");
      return;
    }
  for (guint i = 0; i < G_N_ELEMENTS (at); i++)
    {
      g_autoptr(GCancellable) cancel = g_cancellable_new ();
      g_autoptr(GError) error = NULL;
      CancelAt c = { cancel, at[i], 0, FALSE };
      TmTrace *t = tm_hprof_import (jvm_dump2, cancel_at_progress, &c, cancel, &error);

      g_assert_null (t);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      g_assert_false (c.backwards);
    }
}

/* Marking the graph shows in the document's progress (the app's bar):
 * the fraction moves on through 0.85-0.985 while the 600,004 objects of
 * many_dump are marked (a report every 65,536), never backwards, and a
 * cancel there ends the load at once with G_IO_ERROR_CANCELLED. */
static void
test_document_marking_progress (void)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *path = NULL;
  guint64 dangling;

  bytes = many_dump (FALSE, &dangling);
  path = write_file ("marking.hprof", bytes);
  {
    g_autoptr(GError) error = NULL;
    CancelAt m = { 0 };
    g_autoptr(TmDocument) doc = tm_document_load (path, cancel_at_progress, &m, NULL, &error);

    g_assert_no_error (error);
    g_assert_nonnull (doc);
    g_assert_cmpuint (m.marking, >=, MANY_N / 65536);
    g_assert_false (m.backwards);
    g_assert_cmpfloat (m.last, ==, 1.0);
  }
  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GCancellable) cancel = g_cancellable_new ();
      g_autoptr(GError) error = NULL;
      CancelAt m = { .cancel = cancel, .at = i == 0 ? 0.86 : 0.95 };
      g_autoptr(TmDocument) doc = tm_document_load (path, cancel_at_progress, &m, cancel, &error);

      g_assert_null (doc);
      g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
      /* cancelled while marking: nothing reported after it */
      g_assert_cmpfloat (m.cancelled_at, >=, m.at);
      g_assert_cmpfloat (m.cancelled_at, <, 0.985);
      g_assert_cmpfloat (m.last, ==, m.cancelled_at);
    }
}

/* The builder's graph in one piece (what the importer hands over): a
 * chain from the root through the first half of the objects, the second
 * half unreached.  A cancelled marking leaves the GC without a graph. */
static void
test_graph_csr_cancel (void)
{
  const guint32 n = 200000, half = n / 2;
  g_autofree guint32 *types = g_new (guint32, n);
  g_autofree guint64 *sizes = g_new (guint64, n);
  g_autofree guint32 *off = g_new (guint32, n + 1);
  g_autofree guint32 *dst = g_new (guint32, n);
  g_autoptr(GCancellable) cancel = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  const guint32 root = 0;
  TmTraceHeader h = { .version = 1, .vm_name = "test", .vm_version = "", .command_line = "",
                      .pointer_size = 8, .flags = TM_TRACE_FLAG_GRAPHS };
  TmTraceBuilder *b = tm_trace_builder_new ("(memory)", "test");
  g_autoptr(TmTrace) t = NULL;
  guint32 m = 0;

  tm_trace_builder_header (b, &h);
  tm_trace_builder_keep_all_rows (b);
  g_assert_true (tm_trace_builder_type (b, 7, "Node", 0, NULL));
  for (guint32 i = 0; i < n; i++)
    {
      types[i] = 7;
      sizes[i] = 16 + 8 * (i % 2);
      off[i] = m;
      if (i + 1 < half)
        dst[m++] = i + 1;
    }
  off[n] = m;
  g_assert_true (tm_trace_builder_alloc_run (b, 1, n, types, sizes, NULL));
  g_assert_true (tm_trace_builder_gc_start (b, 1, 10, TM_GC_KIND_MAJOR, "heap dump", "test", NULL));
  g_assert_true (tm_trace_builder_gc_end (b, 1, 10, 0, 0, NULL, NULL));

  g_cancellable_cancel (cancel);
  g_assert_false (tm_trace_builder_graph_csr (b, 1, 1, n, off, dst, &root, 1, cancel, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  g_cancellable_reset (cancel);
  g_assert_true (tm_trace_builder_graph_csr (b, 1, 1, n, off, dst, &root, 1, cancel, NULL, NULL, &error));
  g_assert_no_error (error);
  tm_trace_builder_end (b, n, 0, 1, 10);
  t = tm_trace_builder_finish (b);
  g_assert_cmpuint (t->n_objects, ==, n);
  g_assert_true (tm_trace_gc (t, 1)->has_graph);
  g_assert_cmpuint (tm_trace_gc (t, 1)->reachable_objects, ==, half);
  g_assert_cmpuint (tm_trace_gc (t, 1)->reachable_bytes, ==, (guint64) half * 20);
  g_assert_cmpuint (tm_trace_gc (t, 1)->live_objects, ==, half);
  g_assert_cmpuint (t->obj_death[half - 1], ==, TM_ALIVE);
  g_assert_cmpuint (t->obj_death[half], ==, 1);
}

/* ---- the root-path classifier ------------------------------------------ */

/* The hand-written heap (hw_test_heap): R held by the static field
 * Registry.INSTANCE, A = R.items with N1 and N2 in it; N3 on a thread's
 * stack (it is also N2.next: a root of its own is nearer); P a JNI
 * global; T of unknown root kind; the four class objects; G reached by
 * no root, so not in the heap state.  Sizes with ids of 8 bytes: R 16,
 * A (Node[3]) 32, a Node 24, P (int[10]) 56, T 16, class objects by
 * their statics. */
static void
test_root_classify_written (void)
{
  g_autoptr(GBytes) bytes = hw_test_heap (8, TRUE, FALSE);
  g_autofree char *file = write_file ("root.hprof", bytes);
  g_autoptr(TmTrace) t = load (file);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmHeapAnalysis) h = tm_heap_analysis_new (t, 1, NULL, NULL, NULL, &error);
  g_autoptr(TmClassTree) tree = NULL;
  g_autoptr(TmClassTree) typed = NULL;

  g_assert_no_error (error);
  tree = root_tree (h, FALSE);
  g_assert_cmpuint (tm_class_tree_node (tree, 0)->n_children, ==, 6);
  assert_group (tree, "com.example.Registry.INSTANCE", 1, 16);
  assert_group (tree, "com.example.Registry.INSTANCE.items", 3, 32 + 24 + 24);
  assert_group (tree, "(thread stack) com.example.Node", 1, 24);
  assert_group (tree, "(JNI global) int[]", 1, 56);
  assert_group (tree, "(other) java.lang.Object", 1, 16);
  assert_group (tree, "(system class) java.lang.Class", 4, G_MAXUINT64);
  /* the largest group first */
  {
    g_autofree char *first = tm_class_tree_node_label (tree, tm_class_tree_node (tree, 0)->first_child);
    g_assert_cmpstr (first, ==, "com.example.Registry.INSTANCE.items");
  }
  typed = root_tree (h, TRUE);
  assert_group (typed, "com.example.Registry.INSTANCE.items/com.example.Node", 2, 48);
  assert_group (typed, "com.example.Registry.INSTANCE.items/com.example.Node[]", 1, 32);
}

/* ---- the address index ------------------------------------------------ */

/* Addresses in ascending runs of random lengths in random order (as dumps
 * written by several threads, or damaged ones), with repeats: the index
 * takes each address once, with the index of its first listing, refuses
 * the repeats as they come, and finds every address before and after
 * sealing; checked against a hash table. */
/* Adds addr[0..n) to an index and checks it against a hash table:
 * duplicates refused, every lookup (while adding and once sealed) right.
 * Returns how many were refused. */
static guint32
check_addr_index (const guint64 *addr, guint n, guint max_runs)
{
  g_autoptr(GHashTable) want = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  HprofAddrIndex x = { 0 };
  guint32 added = 0, refused = 0;

  for (guint i = 0; i < n; i++)
    {
      gboolean fresh = !g_hash_table_contains (want, &addr[i]);
      g_assert_cmpint (hprof_addr_add (&x, addr[i]), ==, fresh);
      if (fresh)
        {
          guint64 *k = g_new (guint64, 1);
          *k = addr[i];
          g_hash_table_insert (want, k, GUINT_TO_POINTER (added));
          added++;
        }
      else
        refused++;
      if (i % 997 == 0)
        {
          guint32 got;
          g_assert_true (hprof_addr_find (&x, addr[i / 2], &got));
          g_assert_cmpuint (got, ==, GPOINTER_TO_UINT (g_hash_table_lookup (want, &addr[i / 2])));
        }
    }
  g_assert_cmpuint (x.n, ==, added);
  g_assert_cmpuint (x.n_runs, <=, max_runs);
  hprof_addr_seal (&x);
  for (guint i = 0; i < n; i++)
    {
      guint32 got;
      g_assert_true (hprof_addr_find (&x, addr[i], &got));
      g_assert_cmpuint (got, ==, GPOINTER_TO_UINT (g_hash_table_lookup (want, &addr[i])));
      g_assert_false (hprof_addr_find (&x, addr[i] + 8, &got) && !g_hash_table_contains (want, &(guint64) { addr[i] + 8 }));
    }
  hprof_addr_clear (&x);
  return refused;
}

/* Dense runs one below the other, as a collector that walks its younger
 * (higher) space first writes them: the lower run is added without
 * checks until it reaches the higher one's span, where every address is
 * checked (and the ones it holds refused); then a run inside both. */
static void
test_addr_index_dense_runs (void)
{
  const guint64 high = 0x10000000, low = high - 24 * 20000 - 4096;
  g_autoptr(GArray) a = g_array_new (FALSE, FALSE, sizeof (guint64));
  guint32 held = 0;

  for (guint64 i = 0; i < 20000; i++)
    g_array_append_val (a, (guint64) { high + 16 * i });
  for (guint64 i = 0; i < 20000; i++)
    g_array_append_val (a, (guint64) { low + 24 * i });
  /* on into the higher run's span: every other granule is held there */
  for (guint64 g = (high - 64) / 8; g < (high + 16 * 3000) / 8; g++)
    {
      g_array_append_val (a, (guint64) { 8 * g });
      held += 8 * g >= high && (8 * g - high) % 16 == 0;
    }
  /* a third run below both, into the first */
  for (guint64 i = 0; i < 5000; i++)
    g_array_append_val (a, (guint64) { low - 4096 + 8 * i });
  held += (4999 * 8 - 4096) / 24 + 1;   /* low + 24 j up to the last */
  g_assert_cmpuint (check_addr_index ((const guint64 *) (gpointer) a->data, a->len, 40), ==, held);
}

static void
test_addr_index (gconstpointer data)
{
  guint n_runs_wanted = GPOINTER_TO_UINT (data) & 0xffff;
  gboolean odd = GPOINTER_TO_UINT (data) >> 16;   /* addresses that 4-byte keys cannot hold */
  g_autoptr(GRand) rand = g_rand_new_with_seed (23 + n_runs_wanted);
  const guint n = 200000;
  g_autofree guint64 *addr = g_new (guint64, n);
  guint32 refused;

  /* runs: slices of a shuffled set of ascending blocks, some repeated */
  for (guint i = 0; i < n; i++)
    addr[i] = 0x100000 + (guint64) i * 16 * (1 + i % 3);
  if (odd)
    for (guint i = 1000; i < n; i += 1000)
      addr[i] += i % 3000 == 0 ? G_GUINT64_CONSTANT (1) << 40 : 4;
  for (guint r = 0; r < n_runs_wanted; r++)
    {
      guint a = g_rand_int_range (rand, 0, n), b = g_rand_int_range (rand, 0, n);
      guint lo = MIN (a, b), len = MIN (MAX (a, b) - lo, 5000u);
      guint to = g_rand_int_range (rand, 0, n - len);
      if (g_rand_boolean (rand))
        memmove (addr + to, addr + lo, len * sizeof *addr);  /* repeats a block */
      else
        for (guint k = 0; k < len / 2; k++)                   /* swaps two blocks */
          {
            guint64 tmp = addr[lo + k];
            addr[lo + k] = addr[to + k];
            addr[to + k] = tmp;
          }
    }
  refused = check_addr_index (addr, n, 40);
  if (n_runs_wanted > 0)
    g_assert_cmpuint (refused, >, 0);
}

int
main (int argc, char **argv)
{
  int ret;

  g_test_init (&argc, &argv, NULL);
  tmpdir = g_dir_make_tmp ("tm-hprof-XXXXXX", NULL);
  g_test_add_data_func ("/hprof/written/id4-heap-dump", GUINT_TO_POINTER (0), test_written);
  g_test_add_data_func ("/hprof/written/id8-heap-dump", GUINT_TO_POINTER (1), test_written);
  g_test_add_data_func ("/hprof/written/id4-segments", GUINT_TO_POINTER (2), test_written);
  g_test_add_data_func ("/hprof/written/id8-segments", GUINT_TO_POINTER (3), test_written);
  g_test_add_data_func ("/hprof/addr-index/ascending", GUINT_TO_POINTER (0), test_addr_index);
  g_test_add_data_func ("/hprof/addr-index/few-runs", GUINT_TO_POINTER (8), test_addr_index);
  g_test_add_data_func ("/hprof/addr-index/many-runs", GUINT_TO_POINTER (3000), test_addr_index);
  g_test_add_data_func ("/hprof/addr-index/ascending-wide", GUINT_TO_POINTER (0x10000), test_addr_index);
  g_test_add_data_func ("/hprof/addr-index/many-runs-wide", GUINT_TO_POINTER (0x10000 | 3000), test_addr_index);
  g_test_add_func ("/hprof/addr-index/dense-runs-below", test_addr_index_dense_runs);
  g_test_add_func ("/hprof/unknown-subrecord", test_unknown_subrecord);
  g_test_add_data_func ("/hprof/written/many-references", GUINT_TO_POINTER (TRUE), test_many_references);
  g_test_add_data_func ("/hprof/written/many-references-near", GUINT_TO_POINTER (FALSE), test_many_references);
  g_test_add_func ("/hprof/document/marking-progress", test_document_marking_progress);
  g_test_add_func ("/hprof/root-classify/written", test_root_classify_written);
  g_test_add_func ("/hprof/every-cut", test_every_cut);
  g_test_add_func ("/hprof/cut-gzip", test_cut_gzip);
  g_test_add_func ("/hprof/jvm/counts-retained-path", test_jvm);
  g_test_add_func ("/hprof/jvm/gzip-and-two-dumps", test_jvm_gzip_growth);
  g_test_add_func ("/hprof/jvm/cancel-late", test_jvm_cancel_late);
  g_test_add_func ("/hprof/builder/graph-csr-cancel", test_graph_csr_cancel);
  if (!g_getenv ("TM_TEST_NO_JVM"))
    make_jvm_dumps ();
  ret = g_test_run ();
  hw_remove_dir (tmpdir);
  return ret;
}
