/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * heaptrack's figures per call stack (tm-heaptrack-profile.c) and the
 * call trees built from them (tm-calltree.c), against two answers:
 *
 *  - heaptrack_print's listings of the same recording: every function it
 *    lists by calls, peak, leak and temporary allocations, and each of its
 *    callers, must have the same numbers as the root of that function in
 *    the bottom-up tree (bytes compared in heaptrack's own format);
 *  - the facts of tests/data/heaptrack/calls.c, a program whose call stacks
 *    and counts are known by construction (top-down paths, caller/callee
 *    edges, recursion counted once, a suppressed leak).
 *
 * The recording kept in tests/data/heaptrack is checked always; when
 * heaptrack and a C compiler are installed, calls.c is also compiled
 * (-O0 -fno-builtin), recorded and printed afresh.
 */
#include <string.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "tm-heaptrack-profile.h"
#include "tm-calltree.h"
#include "tm-error.h"
#include "heaptrack-test-util.h"

static char *
data_path (const char *name)
{
  return g_test_build_filename (G_TEST_DIST, "data", "heaptrack", name, NULL);
}

static guint32
root_child (const TmCallTree *tree, guint32 node, const char *function)
{
  const TmCallNode *n = tm_call_tree_node (tree, node);
  TmCallProfile *profile = tm_call_tree_profile (tree);

  for (guint32 c = n->first_child; c < n->first_child + n->n_children; c++)
    if (strcmp (tm_call_profile_get_symbol (profile, tm_call_tree_node (tree, c)->symbol)->function, function) == 0)
      return c;
  return TM_CALL_NO_NODE;
}

/* The node at the end of a path of function names from the root. */
static const TmCallNode *
tree_path (const TmCallTree *tree, const char *const *path)
{
  guint32 at = 0;

  for (guint i = 0; path[i] != NULL; i++)
    {
      at = root_child (tree, at, path[i]);
      if (at == TM_CALL_NO_NODE)
        g_error ("no node %s at depth %u", path[i], i);
    }
  return tm_call_tree_node (tree, at);
}

static const TmCallFunction *
function_named (const TmCallerCallee *cc, TmCallProfile *profile, const char *name)
{
  for (guint32 i = 0; i < tm_caller_callee_n_functions (cc); i++)
    if (strcmp (tm_call_profile_get_symbol (profile, i)->function, name) == 0)
      return tm_caller_callee_function (cc, i);
  g_error ("no function %s", name);
  return NULL;
}

static gint64
edge_cost (TmCallProfile *profile, const TmCallEdge *edges, guint n, const char *name, TmCostKind kind)
{
  for (guint i = 0; i < n; i++)
    if (strcmp (tm_call_profile_get_symbol (profile, edges[i].symbol)->function, name) == 0)
      return edges[i].cost.v[kind];
  return -1;
}

/* The byte figure each listing shows. */
static TmCostKind
section_cost (HpSection s)
{
  switch (s)
    {
    case HP_ALLOCATIONS:   /* listed with their peak */
    case HP_PEAK:        return TM_COST_PEAK;
    case HP_LEAKS:       return TM_COST_LEAKED;
    case HP_TEMPORARY:
    default:             return TM_COST_TEMPORARY;
    }
}

/* Every entry of heaptrack_print's listings against the bottom-up tree.
 * heaptrack lists call sites and whole call stacks; several of them may
 * share a function (or a first caller), so counts are summed per name and
 * bytes compared where one entry stands for the name. */
static void
check_against_print (const TmHeaptrackProfile *hp, const char *listing)
{
  TmCallProfile *calls = tm_heaptrack_profile_calls (hp);
  g_autoptr(TmCallTree) bu = tm_call_tree_new (calls, TM_CALL_TREE_BOTTOM_UP);
  g_autoptr(GPtrArray) entries = hp_parse_listing (listing);
  g_autoptr(GHashTable) sums = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const TmHeaptrackSummary *s = tm_heaptrack_profile_summary (hp);
  guint checked[HP_N_SECTIONS] = { 0 };

  g_assert_cmpuint (entries->len, >, 4);
  for (guint i = 0; i < entries->len; i++)
    {
      const HpEntry *e = entries->pdata[i];
      g_autofree char *k = g_strdup_printf ("%d\x1f%s\x1f%s", e->section, e->function, e->caller ? e->caller : "");
      gint64 *sum = g_hash_table_lookup (sums, k);

      if (sum == NULL)
        {
          sum = g_new0 (gint64, 1);
          g_hash_table_insert (sums, g_strdup (k), sum);
        }
      *sum += e->count;
      g_hash_table_insert (seen, g_strdup (k), GINT_TO_POINTER (GPOINTER_TO_INT (g_hash_table_lookup (seen, k)) + 1));
    }

  for (guint i = 0; i < entries->len; i++)
    {
      const HpEntry *e = entries->pdata[i];
      g_autofree char *k = g_strdup_printf ("%d\x1f%s\x1f%s", e->section, e->function, e->caller ? e->caller : "");
      guint32 node = root_child (bu, 0, e->function);
      TmCostKind kind = section_cost (e->section);
      const TmCallNode *n;
      gint64 want = *(gint64 *) g_hash_table_lookup (sums, k);
      gint64 calls_or_temp;

      g_assert_cmpuint (node, !=, TM_CALL_NO_NODE);
      if (e->caller != NULL)
        {
          node = root_child (bu, node, e->caller);
          g_assert_cmpuint (node, !=, TM_CALL_NO_NODE);
        }
      n = tm_call_tree_node (bu, node);
      calls_or_temp = e->section == HP_TEMPORARY ? n->cost.v[TM_COST_TEMPORARY] : n->cost.v[TM_COST_ALLOCATIONS];
      g_assert_cmpint (calls_or_temp, ==, want);
      /* leaks heaptrack_print 1.4 failed to suppress (see the summary below) */
      if (kind == TM_COST_LEAKED && n->cost.v[kind] == 0 && s->suppressed_bytes > 0 &&
          strstr (listing, "\nsuppressed leaks: ") == NULL)
        continue;
      if (e->bytes != NULL && GPOINTER_TO_INT (g_hash_table_lookup (seen, k)) == 1)
        {
          g_autofree char *got = si_bytes ((guint64) MAX (n->cost.v[kind], 0));
          g_assert_cmpstr (got, ==, e->bytes);
        }
      checked[e->section]++;
    }
  g_assert_cmpuint (checked[HP_ALLOCATIONS], >, 0);
  g_assert_cmpuint (checked[HP_PEAK], >, 0);
  g_assert_cmpuint (checked[HP_TEMPORARY], >, 0);

  /* the summary */
  {
    g_autofree char *allocs = hp_summary_value (listing, "calls to allocation functions");
    g_autofree char *temp = hp_summary_value (listing, "temporary memory allocations");
    g_autofree char *peak = hp_summary_value (listing, "peak heap memory consumption");
    g_autofree char *rss = hp_summary_value (listing, "peak RSS (including heaptrack overhead)");
    g_autofree char *leaked = hp_summary_value (listing, "total memory leaked");
    g_autofree char *suppressed = hp_summary_value (listing, "suppressed leaks");
    g_autofree char *runtime = hp_summary_value (listing, "total runtime");
    g_autofree char *my_peak = si_bytes (s->peak_bytes);
    g_autofree char *my_rss = si_bytes (s->peak_rss_bytes);
    g_autofree char *my_runtime = g_strdup_printf ("%.2fs.", (double) s->total_time_ms / 1000.0);
    g_autofree char *my_all_leaks = si_bytes (s->leaked_bytes + s->suppressed_bytes);
    g_autofree char *my_suppressed = si_bytes (s->suppressed_bytes);

    g_assert_cmpuint (s->allocations, ==, g_ascii_strtoull (allocs, NULL, 10));
    g_assert_cmpuint (s->temporary, ==, g_ascii_strtoull (temp, NULL, 10));
    g_assert_cmpstr (my_peak, ==, peak);
    g_assert_cmpstr (my_rss, ==, rss);
    g_assert_cmpstr (my_runtime, ==, runtime);
    /* heaptrack_print 1.4 cannot read the suppressions it embeds in format
     * 3 files ("invalid suppression line"), so its "leaked" still holds
     * them: compare the sum there, and the split where it printed one */
    if (suppressed != NULL)
      g_assert_cmpstr (my_suppressed, ==, suppressed);
    else
      g_assert_cmpstr (my_all_leaks, ==, leaked);
    g_assert_cmpint (tm_call_profile_total (calls)->v[TM_COST_ALLOCATIONS], ==, (gint64) s->allocations);
  }
}

/* What calls.c does, by construction. */
static void
check_program_facts (const TmHeaptrackProfile *hp)
{
  TmCallProfile *calls = tm_heaptrack_profile_calls (hp);
  g_autoptr(TmCallTree) bu = tm_call_tree_new (calls, TM_CALL_TREE_BOTTOM_UP);
  g_autoptr(TmCallTree) td = tm_call_tree_new (calls, TM_CALL_TREE_TOP_DOWN);
  g_autoptr(TmCallerCallee) cc = tm_caller_callee_new (calls);
  const TmHeaptrackSummary *s = tm_heaptrack_profile_summary (hp);
  const TmCallNode *n;
  const TmCallFunction *f;
  const char *const leaf[] = { "leaf", NULL };
  const char *const leaf_inner[] = { "leaf", "inner", "hot", "main", NULL };
  const char *const hot_path[] = { "main", "hot", "inner", "leaf", NULL };
  const char *const rec_path[] = { "main", "rec", "rec", "rec", "rec", "rec", "leaf", NULL };
  const char *const peak_path[] = { "main", "peak_phase", NULL };

  g_assert_true (s->complete);
  g_assert_cmpuint (s->suppressed_bytes, ==, 10 * 1000);
  g_assert_cmpuint (s->leaked_bytes, ==, 200 * 100);
  g_assert_cmpuint (s->allocated_bytes, >=, 1000 * 64 + 500 * 32 + 200 * 100 + 50 * 16 + 100000 + 300 * 48 + 10 * 1000);

  /* bottom-up: leaf allocates for four callers */
  n = tree_path (bu, leaf);
  g_assert_cmpint (n->cost.v[TM_COST_ALLOCATIONS], ==, 1000 + 500 + 200 + 50);
  g_assert_cmpint (n->cost.v[TM_COST_TEMPORARY], ==, 1000);
  g_assert_cmpint (n->cost.v[TM_COST_LEAKED], ==, 200 * 100);
  g_assert_cmpint (n->cost.v[TM_COST_ALLOCATED], ==, 1000 * 64 + 500 * 32 + 200 * 100 + 50 * 16);
  /* at the peak: the kept blocks of keeper, leaker and rec, not hot's */
  g_assert_cmpint (n->cost.v[TM_COST_PEAK], ==, 500 * 32 + 200 * 100 + 50 * 16);
  g_assert_cmpuint (n->n_children, ==, 4);
  n = tree_path (bu, leaf_inner);
  g_assert_cmpint (n->cost.v[TM_COST_ALLOCATIONS], ==, 1000);
  /* stacks stop at main: what it ends is main's own */
  g_assert_cmpuint (n->n_children, ==, 0);
  g_assert_cmpint (n->self.v[TM_COST_ALLOCATIONS], ==, 1000);

  /* top-down */
  n = tree_path (td, hot_path);
  g_assert_cmpint (n->cost.v[TM_COST_ALLOCATIONS], ==, 1000);
  g_assert_cmpint (n->self.v[TM_COST_TEMPORARY], ==, 1000);
  g_assert_true (g_str_has_suffix (n->file, "/calls.c"));
  g_assert_cmpint (n->line, ==, 24);   /* malloc in leaf (calls.c) */
  n = tree_path (td, rec_path);
  g_assert_cmpint (n->cost.v[TM_COST_ALLOCATIONS], ==, 50);
  n = tree_path (td, peak_path);
  g_assert_cmpint (n->cost.v[TM_COST_PEAK], ==, 100000);

  /* caller/callee: recursion counts once per stack */
  f = function_named (cc, calls, "rec");
  g_assert_cmpint (f->inclusive.v[TM_COST_ALLOCATIONS], ==, 50);
  g_assert_cmpint (f->self.v[TM_COST_ALLOCATIONS], ==, 0);
  g_assert_cmpint (edge_cost (calls, f->callers, f->n_callers, "main", TM_COST_ALLOCATIONS), ==, 50);
  g_assert_cmpint (edge_cost (calls, f->callers, f->n_callers, "rec", TM_COST_ALLOCATIONS), ==, 50);
  g_assert_cmpint (edge_cost (calls, f->callees, f->n_callees, "leaf", TM_COST_ALLOCATIONS), ==, 50);
  f = function_named (cc, calls, "leaf");
  g_assert_cmpint (f->self.v[TM_COST_ALLOCATIONS], ==, 1750);
  g_assert_cmpuint (f->n_callers, ==, 4);
  g_assert_cmpint (edge_cost (calls, f->callers, f->n_callers, "inner", TM_COST_ALLOCATIONS), ==, 1000);
  g_assert_cmpint (edge_cost (calls, f->callers, f->n_callers, "keeper", TM_COST_ALLOCATIONS), ==, 500);
  g_assert_cmpint (edge_cost (calls, f->callers, f->n_callers, "leaker", TM_COST_ALLOCATIONS), ==, 200);
  g_assert_cmpint (edge_cost (calls, f->callers, f->n_callers, "rec", TM_COST_ALLOCATIONS), ==, 50);
  f = function_named (cc, calls, "main");
  g_assert_cmpint (f->inclusive.v[TM_COST_ALLOCATIONS], ==, 1750 + 1 + 300 + 10);
  g_assert_cmpint (edge_cost (calls, f->callees, f->n_callees, "direct", TM_COST_TEMPORARY), ==, 300);

  /* the size histogram: 0-8, 9-16 (rec), 17-32 (keeper), 33-64 (hot, direct), ... */
  {
    const TmSizeBucket *b = tm_heaptrack_profile_sizes (hp);
    guint64 all = 0;
    g_assert_cmpuint (b[1].allocations, ==, 50);
    g_assert_cmpuint (b[2].allocations, ==, 500);
    g_assert_cmpuint (b[3].allocations, ==, 1000 + 300);
    g_assert_cmpuint (b[4].allocations, ==, 200);
    for (guint i = 0; i < TM_SIZE_HISTOGRAM_BUCKETS; i++)
      all += b[i].allocations;
    g_assert_cmpuint (all, ==, s->allocations);
  }
}

/* Reads NAME.zst and checks it against NAME.heaptrack_print.txt. */
static TmHeaptrackProfile *
read_and_check (const char *name)
{
  g_autofree char *zst = g_strconcat (name, ".zst", NULL);
  g_autofree char *txt = g_strconcat (name, ".heaptrack_print.txt", NULL);
  g_autofree char *path = data_path (zst);
  g_autofree char *print_path = data_path (txt);
  g_autofree char *listing = NULL;
  g_autoptr(GError) error = NULL;
  TmHeaptrackProfile *hp = tm_heaptrack_profile_read (path, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (print_path, &listing, NULL, NULL));
  check_against_print (hp, listing);
  return hp;
}

static void
test_recorded (void)
{
  g_autoptr(TmHeaptrackProfile) hp = read_and_check ("calls");
  check_program_facts (hp);
}

/* leaker.zst: a recording with a libstdc++ start-up block (unresolved
 * frames) and churn; its listing was printed by heaptrack_print 1.4. */
static void
test_leaker (void)
{
  g_autoptr(TmHeaptrackProfile) hp = read_and_check ("leaker");
  g_autoptr(TmCallTree) bu = NULL;
  const TmCallSymbol *sym;
  guint32 node;

  bu = tm_call_tree_new (tm_heaptrack_profile_calls (hp), TM_CALL_TREE_BOTTOM_UP);
  node = root_child (bu, 0, "0x7f1dbfaa57b9");
  g_assert_cmpuint (node, !=, TM_CALL_NO_NODE);
  sym = tm_call_profile_get_symbol (tm_heaptrack_profile_calls (hp), tm_call_tree_node (bu, node)->symbol);
  g_assert_false (sym->resolved);
  g_assert_cmpstr (sym->module, ==, "/lib/x86_64-linux-gnu/libstdc++.so.6");
  {
    g_autofree char *label = tm_call_symbol_label (sym);
    g_assert_cmpstr (label, ==, "0x7f1dbfaa57b9 (libstdc++.so.6)");
  }
}

static gboolean
run (const char *const *argv, char **out)
{
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | (out ? 0 : G_SPAWN_STDOUT_TO_DEV_NULL) | G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, out, NULL, &status, &error) ||
      !g_spawn_check_wait_status (status, &error))
    {
      g_test_message ("%s: %s", argv[0], error->message);
      return FALSE;
    }
  return TRUE;
}

/* Compile calls.c, record it with heaptrack, and compare with what this
 * heaptrack_print says about that very recording. */
static void
test_live (void)
{
  g_autofree char *heaptrack = g_find_program_in_path ("heaptrack");
  g_autofree char *print = g_find_program_in_path ("heaptrack_print");
  g_autofree char *cc = g_find_program_in_path ("cc");
  g_autofree char *src = data_path ("calls.c");
  g_autofree char *dir = NULL, *exe = NULL, *out = NULL, *zst = NULL, *listing = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(TmHeaptrackProfile) hp = NULL;

  if (heaptrack == NULL || print == NULL || cc == NULL)
    {
      g_test_skip ("heaptrack, heaptrack_print or cc is not installed");
      return;
    }
  dir = g_dir_make_tmp ("tm-calltree-XXXXXX", &error);
  g_assert_no_error (error);
  exe = g_build_filename (dir, "calls", NULL);
  out = g_build_filename (dir, "rec", NULL);
  zst = g_build_filename (dir, "rec.zst", NULL);
  {
    const char *const build[] = { cc, "-O0", "-fno-builtin", "-g", "-rdynamic", "-o", exe, src, NULL };
    const char *const record[] = { heaptrack, "-o", out, exe, NULL };
    g_assert_true (run (build, NULL));
    g_assert_true (run (record, NULL));
  }
  if (!g_file_test (zst, G_FILE_TEST_EXISTS))
    {
      /* heaptrack built without zstd writes gzip */
      g_free (zst);
      zst = g_build_filename (dir, "rec.gz", NULL);
    }
  {
    const char *const argv[] = { print, "-f", zst, "--print-allocators=1", "--print-peaks=1", "--print-temporary=1",
                                 "--print-leaks=1", "-n", "100", "-s", "100", NULL };
    g_assert_true (run (argv, &listing));
  }
  hp = tm_heaptrack_profile_read (zst, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  check_against_print (hp, listing);

  g_unlink (zst);
  g_unlink (exe);
  g_rmdir (dir);
}

static void
test_damage (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("tm-calltree-XXXXXX", &error);
  g_autofree char *bad = g_build_filename (dir, "bad", NULL);
  g_autofree char *cut = g_build_filename (dir, "cut", NULL);
  g_autofree char *path = data_path ("calls.zst");
  g_autofree char *text = NULL;
  g_autoptr(TmHeaptrackProfile) hp = NULL;
  gsize len;

  g_assert_no_error (error);
  g_assert_true (g_file_set_contents (bad, "hello\nworld\n", -1, NULL));
  hp = tm_heaptrack_profile_read (bad, NULL, NULL, NULL, &error);
  g_assert_null (hp);
  g_assert_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE);
  g_clear_error (&error);

  /* plain text, cut in the middle of a line: what came before stays */
  g_assert_true (g_file_set_contents (cut,
                                      "v 10400 3\ns 4 main\ni 1000 0 1 0 0\nt 1 0\na 10 1\n+ 0\n+ 0\n- 0\n+ 0\n- 0\n+ 7\n- 0", -1,
                                      NULL));
  hp = tm_heaptrack_profile_read (cut, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (tm_heaptrack_profile_summary (hp)->complete);
  g_assert_cmpuint (tm_heaptrack_profile_summary (hp)->allocations, ==, 3);
  g_assert_cmpuint (tm_heaptrack_profile_summary (hp)->temporary, ==, 2);
  g_assert_cmpuint (tm_heaptrack_profile_summary (hp)->peak_bytes, ==, 32);
  g_assert_nonnull (tm_heaptrack_profile_warnings (hp)[0]);
  g_assert_nonnull (strstr (tm_heaptrack_profile_warnings (hp)[0], "undefined allocation info"));
  g_clear_pointer (&hp, tm_heaptrack_profile_free);

  /* a zstd file cut short */
  g_assert_true (g_file_get_contents (path, &text, &len, NULL));
  g_assert_true (g_file_set_contents (cut, text, (gssize) (len / 2), NULL));
  hp = tm_heaptrack_profile_read (cut, NULL, NULL, NULL, &error);
  if (hp != NULL)
    g_assert_false (tm_heaptrack_profile_summary (hp)->complete);
  g_clear_error (&error);

  g_unlink (bad);
  g_unlink (cut);
  g_rmdir (dir);
}

/* A wide profile: K functions each called from the same K callers, the
 * shape of a compiler's recording (cc1plus: 430 K allocations from 90 K
 * stacks).  The trees' indices key (parent, symbol) and (caller, callee)
 * pairs; a hash that folds the halves with XOR put all K * K pairs into
 * 2 K buckets, and building the trees took minutes.  Known answer: 1 + K
 * + K * K bottom-up nodes, each pair's node with one allocation, and K * K
 * caller/callee edges. */
static void
test_wide (void)
{
  enum { K = 500 };
  g_autoptr(TmCallProfile) profile = tm_call_profile_new ();
  g_autoptr(TmCallTree) tree = NULL;
  g_autoptr(TmCallerCallee) cc = NULL;
  guint32 sym[K];
  TmCost one = { { 0 } };
  guint64 edges = 0;

  one.v[TM_COST_ALLOCATIONS] = 1;
  for (guint i = 0; i < K; i++)
    {
      g_autofree char *name = g_strdup_printf ("f%u", i);
      sym[i] = tm_call_profile_symbol (profile, name, "m", TRUE);
    }
  for (guint a = 0; a < K; a++)
    for (guint b = 0; b < K; b++)
      {
        TmCallFrame frames[2] = { { sym[a], NULL, -1 }, { sym[b], NULL, -1 } };
        tm_call_profile_add_stack (profile, frames, a == b ? 1 : 2, &one);
      }
  tree = tm_call_tree_new (profile, TM_CALL_TREE_BOTTOM_UP);
  /* a == b is a stack of one frame: K roots with K - 1 callers each */
  g_assert_cmpuint (tm_call_tree_n_nodes (tree), ==, 1 + K + K * (K - 1));
  for (guint32 n = 1; n < tm_call_tree_n_nodes (tree); n++)
    {
      const TmCallNode *node = tm_call_tree_node (tree, n);
      g_assert_cmpint (node->cost.v[TM_COST_ALLOCATIONS], ==, node->parent == 0 ? K : 1);
    }
  cc = tm_caller_callee_new (profile);
  for (guint i = 0; i < K; i++)
    edges += tm_caller_callee_function (cc, sym[i])->n_callers;
  g_assert_cmpuint (edges, ==, (guint64) K * (K - 1));
}

/* The pairs of test_wide hash apart: distinct hash values for nearly all
 * of the K * K pairs of indices below K (g_int64_hash: 2 K values). */
static void
test_pair_hash (void)
{
  enum { K = 1024 };
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);

  for (guint64 a = 0; a < K; a++)
    for (guint64 b = 0; b < K; b++)
      {
        guint64 key = a << 32 | b;
        g_hash_table_add (seen, GUINT_TO_POINTER (tm_call_pair_hash (&key)));
      }
  g_assert_cmpuint (g_hash_table_size (seen), >, K * K - K * K / 1000);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/calltree/recorded", test_recorded);
  g_test_add_func ("/calltree/leaker", test_leaker);
  g_test_add_func ("/calltree/live", test_live);
  g_test_add_func ("/calltree/damage", test_damage);
  g_test_add_func ("/calltree/wide", test_wide);
  g_test_add_func ("/calltree/pair-hash", test_pair_hash);
  return g_test_run ();
}
