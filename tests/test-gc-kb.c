/* SPDX-License-Identifier: GPL-3.0-or-later
 * Knowledge base: loading, saving and the k-nearest-neighbour lookup on a
 * small fixture with known answers (tests/data/kb/fixture.kb); GC
 * configurations to flags and back. */
#include "tm-gc-config.h"
#include "tm-gc-kb-tree.h"

#include "tm-error.h"

#include <glib/gstdio.h>
#include <math.h>

static TmKb *
fixture (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "kb", "fixture.kb", NULL);
  g_autoptr(GError) error = NULL;
  TmKb *kb = tm_kb_load (path, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (kb->entries->len, ==, 4);
  return kb;
}

/* Feature spreads over the fixture (population standard deviation):
 * alloc {3,3,1,1}: 1; live {1,1.5,3,3}: 0.8926...; growth {0,0,0,1}: 0.4330...;
 * GCs/s {2,2,0,0}: 1; promoted and burstiness do not vary (scale 1). */
static void
test_nearest (void)
{
  g_autoptr(TmKb) kb = fixture ();
  TmGcFeatures q = { { 3, 1.2, 0, 0, 0, 2 } };
  TmKbNeighbour nb[4];
  guint n = tm_kb_nearest (kb, &q, 4, nb);

  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpstr (nb[0].entry->name, ==, "alpha");
  g_assert_cmpstr (nb[1].entry->name, ==, "beta");
  g_assert_cmpstr (nb[2].entry->name, ==, "gamma");
  g_assert_cmpstr (nb[3].entry->name, ==, "delta");
  /* |1.2 - 1| / sd(live) where sd = sqrt(mean of squares of deviations from 2.125) */
  {
    double m = (1 + 1.5 + 3 + 3) / 4.0;
    double sd = sqrt (((1 - m) * (1 - m) + (1.5 - m) * (1.5 - m) + 2 * (3 - m) * (3 - m)) / 4);
    g_assert_cmpfloat_with_epsilon (nb[0].distance, 0.2 / sd, 1e-9);
    g_assert_cmpfloat_with_epsilon (nb[1].distance, 0.3 / sd, 1e-9);
  }
  /* k larger than the base: all of them */
  g_assert_cmpuint (tm_kb_nearest (kb, &q, 10, nb), ==, 4);

  /* a leaky query is nearest to delta */
  {
    TmGcFeatures leaky = { { 1, 3, 0, 0.9, 0, 0 } };
    tm_kb_nearest (kb, &leaky, 1, nb);
    g_assert_cmpstr (nb[0].entry->name, ==, "delta");
  }
}

static void
test_suggest (void)
{
  g_autoptr(TmKb) kb = fixture ();
  TmGcFeatures q = { { 3, 1.2, 0, 0, 0, 2 } };
  TmGcConfig c = { 0 };
  g_autofree char *s1 = NULL, *s2 = NULL, *s3 = NULL, *s4 = NULL;

  /* k = 3: alpha and beta agree on Parallel 3x for throughput */
  g_assert_true (tm_kb_suggest (kb, &q, 3, TM_GOAL_THROUGHPUT, &c));
  s1 = tm_gc_config_to_string (&c);
  g_assert_cmpstr (s1, ==, "collector=Parallel heap=3x");
  tm_gc_config_clear (&c);
  /* latency: alpha G1, beta ZGC, gamma Shenandoah: one vote each, the nearest wins */
  g_assert_true (tm_kb_suggest (kb, &q, 3, TM_GOAL_LATENCY, &c));
  s2 = tm_gc_config_to_string (&c);
  g_assert_cmpstr (s2, ==, "collector=G1");
  tm_gc_config_clear (&c);
  /* footprint: beta has none; alpha is nearest */
  g_assert_true (tm_kb_suggest (kb, &q, 2, TM_GOAL_FOOTPRINT, &c));
  s3 = tm_gc_config_to_string (&c);
  g_assert_cmpstr (s3, ==, "collector=Serial heap=2x");
  tm_gc_config_clear (&c);
  /* a leaky query, k = 1, latency: delta has no latency entry */
  {
    TmGcFeatures leaky = { { 1, 3, 0, 0.9, 0, 0 } };
    g_assert_false (tm_kb_suggest (kb, &leaky, 1, TM_GOAL_LATENCY, &c));
    g_assert_true (tm_kb_suggest (kb, &leaky, 2, TM_GOAL_LATENCY, &c));
    s4 = tm_gc_config_to_string (&c);
    g_assert_cmpstr (s4, ==, "collector=Shenandoah");
    tm_gc_config_clear (&c);
  }
}

static void
check_decision (const TmKbTree *tree, const TmGcFeatures *q, const char *config,
                const char *const *conditions, const char *const *like)
{
  TmKbDecision d = { 0 };
  g_autofree char *c = NULL;
  guint n;

  tm_kb_tree_decide (tree, q, &d);
  c = tm_gc_config_to_string (&d.config);
  g_assert_cmpstr (c, ==, config);
  n = g_strv_length ((char **) conditions);
  g_assert_cmpuint (d.conditions->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (d.conditions->pdata[i], ==, conditions[i]);
  n = g_strv_length ((char **) like);
  g_assert_cmpuint (d.like->len, ==, n);
  for (guint i = 0; i < n; i++)
    g_assert_cmpstr (d.like->pdata[i], ==, like[i]);
  tm_kb_decision_clear (&d);
}

/* Throughput over the fixture: labels P (alpha, beta: Parallel 3x), A
 * (gamma), B (delta); Gini 0.625 at the root.  Allocation <= 2 leaves
 * {gamma, delta} | {alpha, beta}: 2/4 * 0.5 = 0.25, as do live <= 2.25 and
 * GCs/s <= 1 (the lower feature wins the tie); growth <= 0.5 gives 0.333.
 * {gamma, delta} then split on growth.  Latency (delta has none): alpha
 * G1, beta ZGC, gamma Shenandoah; allocation <= 2 takes gamma off, then
 * live <= 1.25 parts alpha from beta. */
static void
test_tree (void)
{
  g_autoptr(TmKb) kb = fixture ();
  g_autoptr(TmKbTree) throughput = tm_kb_tree_build (kb, TM_GOAL_THROUGHPUT, TM_KB_TREE_DEPTH);
  g_autoptr(TmKbTree) latency = tm_kb_tree_build (kb, TM_GOAL_LATENCY, TM_KB_TREE_DEPTH);
  g_autoptr(TmKbTree) shallow = tm_kb_tree_build (kb, TM_GOAL_THROUGHPUT, 1);
  TmGcFeatures q = { { 3, 1.2, 0, 0, 0, 2 } };
  TmGcFeatures leaky = { { 1, 3, 0, 0.9, 0, 0 } };

  g_assert_cmpuint (tm_kb_tree_n_nodes (throughput), ==, 5);
  check_decision (throughput, &q, "collector=Parallel heap=3x",
                  (const char *const[]) { "log10 allocation MiB/s > 2", NULL },
                  (const char *const[]) { "alpha", "beta", NULL });
  check_decision (throughput, &leaky, "collector=G1",
                  (const char *const[]) { "log10 allocation MiB/s <= 2", "live growth > 0.5", NULL },
                  (const char *const[]) { "delta", NULL });

  g_assert_cmpuint (tm_kb_tree_n_nodes (latency), ==, 5);
  check_decision (latency, &q, "collector=G1",
                  (const char *const[]) { "log10 allocation MiB/s > 2", "log10 live MiB <= 1.25", NULL },
                  (const char *const[]) { "alpha", NULL });
  check_decision (latency, &leaky, "collector=Shenandoah",
                  (const char *const[]) { "log10 allocation MiB/s <= 2", NULL },
                  (const char *const[]) { "gamma", NULL });

  /* one level: the mixed leaf takes the first workload's configuration */
  g_assert_cmpuint (tm_kb_tree_n_nodes (shallow), ==, 3);
  check_decision (shallow, &leaky, "collector=G1 heap=2x new-ratio=1",
                  (const char *const[]) { "log10 allocation MiB/s <= 2", NULL },
                  (const char *const[]) { "gamma", "delta", NULL });

  /* no entry with a configuration for the goal: no tree */
  {
    g_autoptr(TmKb) empty = tm_kb_new ();
    g_assert_null (tm_kb_tree_build (empty, TM_GOAL_FOOTPRINT, TM_KB_TREE_DEPTH));
  }
}

static void
test_save_load (void)
{
  g_autoptr(TmKb) kb = fixture ();
  g_autofree char *dir = g_dir_make_tmp ("tm-kb-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "kb", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(TmKb) again = NULL;
  TmKbEntry *e = g_new0 (TmKbEntry, 1);

  e->name = g_strdup ("epsilon");
  e->features = (TmGcFeatures) { { 2, 2, 0.25, 0, 0.5, 1 } };
  g_assert_true (tm_gc_config_from_string ("collector=Serial max-tenuring=15 survivor-ratio=4", &e->best[TM_GOAL_FOOTPRINT], &error));
  e->has_best[TM_GOAL_FOOTPRINT] = TRUE;
  tm_kb_put (kb, e);
  g_assert_true (tm_kb_save (kb, path, &error));
  g_assert_no_error (error);
  again = tm_kb_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (again->entries->len, ==, 5);
  {
    const TmKbEntry *x = again->entries->pdata[4];
    g_autofree char *s = tm_gc_config_to_string (&x->best[TM_GOAL_FOOTPRINT]);
    g_assert_cmpstr (x->name, ==, "epsilon");
    g_assert_cmpfloat (x->features.v[2], ==, 0.25);
    g_assert_cmpstr (s, ==, "collector=Serial max-tenuring=15 survivor-ratio=4");
    g_assert_false (x->has_best[TM_GOAL_THROUGHPUT]);
  }
  g_unlink (path);
  g_rmdir (dir);
}

static void
test_config (void)
{
  TmGcConfig c = { 0 };
  g_autoptr(GError) error = NULL;
  g_autofree char *flags = NULL, *def = NULL;

  g_assert_true (tm_gc_config_from_string ("collector=G1 heap=2.5x new-ratio=2", &c, &error));
  /* 2.5 x 40 MiB = 100 MiB */
  flags = tm_gc_config_flags_line (&c, 40 * 1024 * 1024);
  g_assert_cmpstr (flags, ==, "-XX:+UseG1GC -Xmx100m -XX:NewRatio=2");
  tm_gc_config_clear (&c);
  def = tm_gc_config_to_string (&c);
  g_assert_cmpstr (def, ==, "default");
  g_assert_false (tm_gc_config_from_string ("collector=Epsilon", &c, &error));
  g_assert_error (error, TM_ERROR, TM_ERROR_FORMAT);
  g_clear_error (&error);
  g_assert_false (tm_gc_config_from_string ("heap=3", &c, &error));
  g_clear_error (&error);
  g_assert_false (tm_gc_config_from_string ("max-tenuring=16", &c, &error));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gc-kb/config", test_config);
  g_test_add_func ("/gc-kb/nearest", test_nearest);
  g_test_add_func ("/gc-kb/suggest", test_suggest);
  g_test_add_func ("/gc-kb/tree", test_tree);
  g_test_add_func ("/gc-kb/save-load", test_save_load);
  return g_test_run ();
}
