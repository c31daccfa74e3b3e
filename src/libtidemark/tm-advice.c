/* SPDX-License-Identifier: GPL-3.0-or-later
 * GC configuration advice: one function per rule; see tm-advice.h and
 * docs/advice.md for the thresholds and why they are where they are. */
#include "tm-advice.h"
#include "tm-advice-ages.h"
#include "tm-gc-stats.h"
#include "tm-windows.h"
#include "tm-format-util.h"

#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MIB (1024.0 * 1024.0)

typedef struct {
  const TmTrace        *trace;
  const TmAdviceParams *params;
  guint32               first, last;
  TmGcStats             st;
  GPtrArray            *windows;      /* suspicious windows overlapping the range */
  double                max_heap;     /* -Xmx from the recorder or the log, else the highest committed heap */
  GPtrArray            *out;
} Ctx;

void
tm_advice_params_init (TmAdviceParams *params)
{
  params->goal = TM_ADVICE_GOAL_ANY;
  params->pause_target_ms = 100;
}

void
tm_advice_free (TmAdvice *a)
{
  if (a == NULL)
    return;
  g_free (a->finding);
  g_free (a->action);
  g_free (a->flags);
  if (a->gcs)
    g_array_unref (a->gcs);
  g_free (a);
}

const char *
tm_advice_goal_to_string (TmAdviceGoal goal)
{
  switch (goal)
    {
    case TM_ADVICE_GOAL_THROUGHPUT: return "throughput";
    case TM_ADVICE_GOAL_LATENCY: return "latency";
    case TM_ADVICE_GOAL_FOOTPRINT: return "footprint";
    case TM_ADVICE_GOAL_ANY: default: return "any";
    }
}

gboolean
tm_advice_goal_from_string (const char *s, TmAdviceGoal *goal)
{
  for (TmAdviceGoal g = TM_ADVICE_GOAL_ANY; g <= TM_ADVICE_GOAL_FOOTPRINT; g++)
    if (g_strcmp0 (s, tm_advice_goal_to_string (g)) == 0)
      {
        *goal = g;
        return TRUE;
      }
  return FALSE;
}

/* "-Xmx" style size: whole MiB, or GiB when exact. */
static char *
jvm_size (double bytes)
{
  guint64 mib = (guint64) ceil (bytes / MIB);

  mib = MAX (mib, 1);
  if (mib >= 1024 && mib % 1024 == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "g", mib / 1024);
  return g_strdup_printf ("%" G_GUINT64_FORMAT "m", mib);
}

/* Rounds a suggested size up to a multiple of 16 MiB so flags look like a person chose them. */
static double
round_size (double bytes)
{
  return ceil (bytes / (16 * MIB)) * 16 * MIB;
}

static TmAdvice *
add (Ctx *c, const char *rule, const char *title, double severity)
{
  TmAdvice *a = g_new0 (TmAdvice, 1);

  a->rule = rule;
  a->title = title;
  a->severity = severity;
  a->gcs = g_array_new (FALSE, FALSE, sizeof (guint32));
  g_ptr_array_add (c->out, a);
  return a;
}

static void
advise_to (TmAdvice *a, const char *action, const char *flags)
{
  a->action = g_strdup (action);
  a->flags = g_strdup (flags);
}

static void
evidence (TmAdvice *a, guint32 gc_id)
{
  a->n_gcs++;
  if (a->gcs->len < TM_ADVICE_MAX_EVIDENCE)
    g_array_append_val (a->gcs, gc_id);
}

static const TmWindow *
find_window (Ctx *c, TmWindowKind kind)
{
  for (guint i = 0; i < c->windows->len; i++)
    {
      const TmWindow *w = c->windows->pdata[i];
      if (w->kind == kind)
        return w;
    }
  return NULL;
}

static gboolean
collector_is (Ctx *c, const char *name)
{
  const char *m = g_hash_table_lookup (c->trace->meta, "gclog.collector");
  return g_str_has_prefix (c->st.collector, name) || (m && g_str_has_prefix (m, name));
}

static gboolean
cause_has (const TmGc *gc, const char *what)
{
  return strstr (gc->cause, what) != NULL;
}

static double
pause_share (Ctx *c, double pause_ns)
{
  return c->st.duration_ns > 0 ? pause_ns / c->st.duration_ns : 0;
}

#define FOR_GCS(c, gc)                                                             \
  for (guint32 _id = (c)->first; _id <= (c)->last; _id++)                          \
    for (const TmGc *gc = tm_trace_gc ((c)->trace, _id); gc; gc = NULL)            \
      if (gc->complete)

/* ---- rules ------------------------------------------------------------ */

/* Stricter than the windows view, because advice must not send a healthy
 * program hunting for a leak: the series must be live data (reachable
 * memory or occupancy after whole-heap GCs), the fitted trend must rise
 * too, growth must last longer than start-up (5 s) and still go on in the
 * window's second half (a warm-up levels off). */
static gboolean
leak_is_sustained (Ctx *c, const TmWindow *w)
{
  const TmWindow *r = find_window (c, TM_WINDOW_LEAK_REGRESSION);
  guint n = 0;
  double mid_v = 0, first_v = -1, last_v = 0;
  guint64 mid_t = w->start_ns + (w->end_ns - w->start_ns) / 2;
  /* a leak that ran into the heap's limit stays flat there until the
   * OutOfMemoryError; the windows detector judged that ceiling already */
  gboolean hit_limit = tm_trace_n_oom_events (c->trace) > 0 &&
                       tm_trace_oom_event (c->trace, 0)->kind == TM_OOM_JAVA_HEAP &&
                       g_strcmp0 (w->growth, "leak") == 0;

  if (r == NULL || w->series == NULL || g_str_equal (w->series, "occupancy"))
    return FALSE;
  if (w->end_ns - w->start_ns < 5 * G_GUINT64_CONSTANT (1000000000))
    return FALSE;
  for (guint32 id = w->first_gc; id <= w->last_gc; id++)
    {
      const TmGc *gc = tm_trace_gc (c->trace, id);
      double v;
      if (!gc->complete)
        continue;
      if (g_str_equal (w->series, "reachable") ? !gc->has_graph : !tm_gc_is_whole_heap (gc))
        continue;
      v = g_str_equal (w->series, "reachable") ? (double) gc->reachable_bytes : (double) gc->used_after;
      if (first_v < 0)
        first_v = v;
      if (gc->end_ns <= mid_t)
        mid_v = v;
      last_v = v;
      n++;
    }
  return n >= 5 && last_v > first_v && (hit_limit || (last_v - mid_v) >= 0.25 * (last_v - first_v));
}

/* A leak window: the live data grows until the heap is full, whatever its size. */
static gboolean
rule_leak (Ctx *c)
{
  const TmWindow *w = find_window (c, TM_WINDOW_LEAK);
  TmAdvice *a;
  g_autofree char *rate = NULL, *from = NULL, *to = NULL, *max = NULL, *twice = NULL;
  const char *series;
  double left;
  gboolean backlog;

  if (w == NULL || !leak_is_sustained (c, w))
    return FALSE;
  /* young objects turned over in growing numbers: a queue that is not
   * drained fast enough fails the same way, but the fix is another */
  backlog = g_strcmp0 (w->growth, "backlog") == 0;
  a = backlog ? add (c, "backlog", _("Backlog: a queue fills faster than it is drained"), 1.0)
              : add (c, "leak", _("Memory leak: more heap only delays the failure"), 1.0);
  for (guint32 id = MAX (w->first_gc, c->first); id <= MIN (w->last_gc, c->last); id++)
    {
      const TmGc *gc = tm_trace_gc (c->trace, id);
      if (gc->complete && (c->st.n_whole_heap < 5 || tm_gc_is_whole_heap (gc)))
        evidence (a, id);
    }
  rate = tm_format_bytes (w->score);
  from = tm_format_bytes (w->value_start);
  to = tm_format_bytes (w->value_end);
  max = tm_format_bytes (c->max_heap);
  twice = tm_format_bytes (2 * c->max_heap);
  series = tm_windows_leak_series_label (c->trace, NULL);
  if (series == NULL)
    series = _("occupancy");
  left = w->score > 0 ? MAX (0.0, c->max_heap - w->value_end) / w->score : INFINITY;
  /* a leak that already filled the heap (it ran out of memory, or
   * thrashes at the limit) has no time left to predict */
  if ((tm_trace_n_oom_events (c->trace) > 0 && tm_trace_oom_event (c->trace, 0)->kind == TM_OOM_JAVA_HEAP) ||
      left < 1)
    a->finding = g_strdup_printf (_("The live data grows by %s/s from GC %u to GC %u (%s to %s, %s) and "
                                  "never comes back down, until it fills the heap of %s."),
                                  rate, w->first_gc, w->last_gc, from, to,
                                  series, max);
  else
    a->finding = g_strdup_printf (_("The live data grows by %s/s from GC %u to GC %u (%s to %s, %s) and "
                                  "never comes back down; the heap can hold %s, so at this rate it is full "
                                  "in about %.0f s."),
                                  rate, w->first_gc, w->last_gc, from, to,
                                  series, max, isfinite (left) ? left : 0);
  if (backlog)
    a->action = g_strdup_printf (_("What grows stays young: each object waits a little, but more of them "
                                 "wait every second. More heap only delays the failure (doubling it to %s "
                                 "buys about %.0f s). Bound the queue (a capacity that blocks or rejects "
                                 "producers) or make its consumers keep up; the window's data structures "
                                 "name the queue."),
                                 twice, w->score > 0 ? c->max_heap / w->score : 0);
  else
    a->action = g_strdup_printf (_("Do not tune the heap size for this: doubling it to %s buys only about "
                               "%.0f s more. Find what grows: record the program with `tidemark-cli record` "
                               "and look at the leak window's data structures and object groups, or keep a "
                               "heap dump of the failure."),
                               twice, w->score > 0 ? c->max_heap / w->score : 0);
  a->flags = g_strdup ("-XX:+HeapDumpOnOutOfMemoryError");
  return TRUE;
}

/* GC-overhead windows while the heap stays nearly full after full GCs. */
static void
rule_heap_too_small (Ctx *c, gboolean leak)
{
  const TmWindow *w = find_window (c, TM_WINDOW_GC_OVERHEAD);
  guint n_full = 0, n_near = 0;
  guint64 live = 0;
  TmAdvice *a;
  g_autofree char *lb = NULL, *mb = NULL, *sz = NULL;
  double suggest;
  const double near = 0.70;    /* occupancy after a full GC at or above 70% of the heap */

  if (w == NULL || leak || c->max_heap <= 0)
    return;
  FOR_GCS (c, gc)
    if (tm_gc_is_whole_heap (gc))
      {
        n_full++;
        if ((double) gc->used_after >= near * c->max_heap)
          n_near++;
        live = MAX (live, gc->used_after);
      }
  /* at least half of the full GCs leave the heap nearly full */
  if (n_full == 0 || n_near * 2 < n_full)
    return;
  a = add (c, "heap-too-small", _("Heap too small for the live data"), w->score);
  FOR_GCS (c, gc)
    if (tm_gc_is_whole_heap (gc) && (double) gc->used_after >= near * c->max_heap)
      evidence (a, gc->id);
  suggest = round_size (MAX (3.0 * (double) live, 2.0 * c->max_heap));
  lb = tm_format_bytes ((double) live);
  mb = tm_format_bytes (c->max_heap);
  sz = jvm_size (suggest);
  a->finding = g_strdup_printf (_("GCs %u-%u spend %.1f%% of the time in pauses, and %u of %u full "
                                "collections leave the heap at least %.0f%% full (up to %s live of %s)."),
                                w->first_gc, w->last_gc, w->score * 100, n_near, n_full, near * 100, lb, mb);
  a->action = g_strdup_printf (_("Give the heap room above the live data: about three times the live set "
                               "(%s), so that full collections become rare."), sz);
  a->flags = g_strdup_printf ("-Xmx%s", sz);
}

/* An old-generation collection that frees at least half of it. */
static gboolean
frees_half_of_old (Ctx *c, const TmGc *gc)
{
  guint64 ob, oa, oc;

  return (tm_gc_is_whole_heap (gc) || gc->kind == TM_GC_KIND_MIXED)
         && tm_gc_space_kind_usage (c->trace, gc, TM_SPACE_KIND_OLD, &ob, &oa, &oc) && ob > 0
         && (double) (ob - MIN (ob, oa)) >= 0.5 * (double) ob;
}

/* From recorded lifetimes: most of what is promoted is freed by the first
 * old-generation collection after its promotion. */
static void
premature_promotion_lifetimes (Ctx *c)
{
  TmPromotionLifetimes pl;
  double share;
  guint t = tm_trace_tenuring_threshold (c->trace), want;
  TmAdvice *a;
  g_autofree char *pb = NULL, *sb = NULL, *young = NULL, *no = NULL;

  if (!tm_promotion_lifetimes (c->trace, c->first, c->last, t, &pl))
    return;
  share = pl.promoted_bytes > 0 ? (double) pl.soon_bytes / (double) pl.promoted_bytes : 0;
  /* half of the promoted bytes, and 1 MiB, die at the first chance */
  if (pl.n_young < 10 || pl.n_old < 2 || share < 0.5 || pl.soon_bytes < MIB)
    {
      tm_promotion_lifetimes_clear (&pl);
      return;
    }
  a = add (c, "premature-promotion", _("Objects promoted too early die in the old generation"),
           pause_share (c, c->st.pause_total_ns) * share);
  for (guint i = 0; i < pl.soon_gcs->len; i++)
    evidence (a, g_array_index (pl.soon_gcs, guint32, i));
  pb = tm_format_bytes ((double) pl.promoted_bytes);
  sb = tm_format_bytes ((double) pl.soon_bytes);
  no = g_strdup_printf ("%" G_GUINT64_FORMAT, pl.promoted_objects);
  a->finding = g_strdup_printf (_("Of %s promoted at a tenuring threshold of %u (%s objects, from the recorded "
                                "lifetimes), %s (%.0f%%) were freed by the first old-generation collection after "
                                "their promotion: three quarters of them within %u young GCs of their birth."),
                                pb, t, no, sb, share * 100, pl.soon_age_p75);
  /* keep them young through the young GCs most of them die within: a
   * threshold of A keeps an object young through A young GCs (above the
   * current one: the promoted lived through more than it) */
  want = MAX (pl.soon_age_p75, t + 1);
  if (want <= TM_GC_MAX_AGE)
    {
      a->action = g_strdup_printf (_("Keep them in the young generation until they die: a tenuring threshold of %u "
                                   "covers three quarters of them, with survivor space to hold them."), want);
      a->flags = g_strdup_printf ("-XX:MaxTenuringThreshold=%u", want);
    }
  else
    {
      /* more young GCs than any threshold: fewer, larger young GCs */
      double f = (double) want / TM_GC_MAX_AGE;
      if (c->st.young_committed_bytes > 0)
        young = jvm_size (round_size (f * (double) c->st.young_committed_bytes));
      a->action = g_strdup_printf (_("They outlive the highest tenuring threshold (15): a young generation %.1f "
                                   "times as large makes young GCs that much rarer, so that they die young."), f);
      a->flags = young ? g_strdup_printf ("-Xmn%s -XX:MaxTenuringThreshold=15", young)
                       : g_strdup ("-XX:MaxTenuringThreshold=15");
    }
  tm_promotion_lifetimes_clear (&pl);
}

/* Most of what minor GCs keep is promoted, and the old generation then frees it. */
static void
rule_premature_promotion (Ctx *c)
{
  const TmGcStats *s = &c->st;
  double promo, reclaim;
  guint n_reclaiming = 0;
  TmAdvice *a;
  g_autofree char *pr = NULL, *yc = NULL, *flags_mn = NULL;

  /* lifetimes say it object by object; generation sizes only in sum */
  if (c->trace->n_objects > 0)
    {
      premature_promotion_lifetimes (c);
      return;
    }
  if (s->n_minor < 10 || s->promoted_bytes <= 0 || s->old_before_bytes <= 0)
    return;
  promo = s->promoted_bytes / (s->promoted_bytes + s->young_freed_bytes);
  reclaim = s->old_reclaimed_bytes / s->old_before_bytes;
  FOR_GCS (c, gc)
    if (frees_half_of_old (c, gc))
      n_reclaiming++;
  /* 15% of the survivors of young GCs promoted, and half of the old
   * generation garbage at its next collection, at least twice */
  if (promo < 0.15 || reclaim < 0.5 || n_reclaiming < 2)
    return;
  a = add (c, "premature-promotion", _("Objects promoted too early die in the old generation"),
           pause_share (c, s->pause_total_ns) * promo);
  FOR_GCS (c, gc)
    if (frees_half_of_old (c, gc))
      evidence (a, gc->id);
  pr = tm_format_bytes (s->duration_ns > 0 ? s->promoted_bytes / (s->duration_ns / 1e9) : 0);
  a->finding = g_strdup_printf (_("Minor GCs promote %.0f%% of what they do not free (%s/s into the old "
                                "generation), and %u old-generation collections then free %.0f%% of it: "
                                "the promoted objects die soon after promotion."),
                                promo * 100, pr, n_reclaiming, reclaim * 100);
  if (s->young_committed_bytes > 0)
    {
      yc = jvm_size (round_size (2.0 * (double) s->young_committed_bytes));
      flags_mn = g_strdup_printf ("-Xmn%s ", yc);
    }
  a->action = g_strdup_printf (_("Keep them in the young generation until they die: a larger young "
                               "generation%s%s%s and the highest tenuring threshold."),
                               yc ? " (" : "", yc ? yc : "", yc ? _(", twice the current one)") : "");
  a->flags = g_strdup_printf ("%s-XX:MaxTenuringThreshold=15", flags_mn ? flags_mn : "");
}

/* Survivor space after a young GC and its capacity (FALSE if not logged). */
static gboolean
survivor_usage (Ctx *c, const TmGc *gc, guint64 *after, guint64 *capacity)
{
  *after = *capacity = 0;
  if (gc->kind != TM_GC_KIND_MINOR && gc->kind != TM_GC_KIND_MIXED)
    return FALSE;
  for (guint32 i = 0; i < gc->usage_count; i++)
    {
      const TmSpaceUsage *u = &g_array_index (c->trace->space_usage, TmSpaceUsage, gc->usage_first + i);
      if (tm_trace_space (c->trace, u->space)->kind == TM_SPACE_KIND_SURVIVOR)
        {
          *after += u->used_after;
          *capacity += u->committed_after;
        }
    }
  return *capacity > 0;
}

/* Survivor space full after young GCs, so survivors overflow into old. */
static void
rule_survivor_overflow (Ctx *c)
{
  guint n_young = 0, n_full_surv = 0;
  gboolean has_capacity = FALSE;
  TmAdvice *a;

  /* G1 sizes its survivor regions to what survives each young GC: the
   * pool's committed size follows its use and is no limit (its logs print
   * only the regions in use).  Recordings report the committed size, so
   * every young GC that filled its last region looked full: 11 of 29 in
   * a batch job that never lacked survivor space. */
  if (collector_is (c, "G1"))
    return;
  FOR_GCS (c, gc)
    {
      guint64 af, cm;
      if (!survivor_usage (c, gc, &af, &cm))
        continue;
      n_young++;
      if (af >= cm)
        n_full_surv++;
      else
        has_capacity = TRUE;
    }
  /* G1 logs survivor regions in use, not a capacity: nothing to compare with */
  if (!has_capacity)
    return;
  /* a fifth of the young GCs (and at least 3) fill the survivor space */
  if (n_young < 10 || n_full_surv < 3 || n_full_surv * 5 < n_young)
    return;
  a = add (c, "survivor-overflow", _("Survivor space overflows: survivors go to the old generation early"),
           (double) n_full_surv / n_young * pause_share (c, c->st.pause_total_ns));
  FOR_GCS (c, gc)
    {
      guint64 af, cm;
      if (survivor_usage (c, gc, &af, &cm) && af >= cm)
        evidence (a, gc->id);
    }
  a->finding = g_strdup_printf (_("%u of %u young GCs end with the survivor space at its limit: what does "
                                "not fit is promoted regardless of its age."), n_full_surv, n_young);
  a->action = g_strdup (_("Allow more survivor space: a lower survivor ratio (the survivor limit is the "
                        "young generation divided by it) and a higher target occupancy."));
  a->flags = g_strdup ("-XX:SurvivorRatio=4 -XX:TargetSurvivorRatio=80");
}

/* Pause time of the young GCs of the range (what copying survivors costs). */
static double
young_pause_ns (Ctx *c)
{
  double ns = 0;
  FOR_GCS (c, gc)
    if (gc->kind == TM_GC_KIND_MINOR || gc->kind == TM_GC_KIND_MIXED)
      ns += (double) gc->pause_ns;
  return ns;
}

/* Survivors that live on once they reach some age are copied between
 * the survivor spaces at every young GC until the threshold promotes
 * them: a lower MaxTenuringThreshold promotes them at once. */
static void
rule_tenuring_threshold (Ctx *c, const TmAgeCurve *ac)
{
  guint k = ac->stable_age;
  double recopied = 0, lo = 1, hi = 0;
  guint last = k;
  TmAdvice *a;
  g_autofree char *rb = NULL;

  if (ac->n_tables < 10 || k == 0 || k >= ac->median_threshold || ac->mean_total <= 0)
    return;
  for (guint j = k + 1; j <= TM_GC_MAX_AGE; j++)
    recopied += ac->mean_bytes[j];
  /* a fifth of what each young GC copies, and 256 KiB (a quarter of a
   * millisecond of copying), is old survivors copied again */
  if (recopied < 0.2 * ac->mean_total || recopied < 256 * 1024)
    return;
  a = add (c, "tenuring-threshold", _("Long-lived survivors are copied at every young GC before promotion"),
           recopied / ac->mean_total * pause_share (c, young_pause_ns (c)));
  FOR_GCS (c, gc)
    {
      const TmGcAges *t = tm_trace_gc_ages (c->trace, gc->id);
      for (guint j = k + 1; t && j <= TM_GC_MAX_AGE; j++)
        if (t->bytes[j] > 0)
          {
            evidence (a, gc->id);
            break;
          }
    }
  for (guint j = k; j <= TM_GC_MAX_AGE; j++)
    if (ac->survival[j] >= 0)
      {
        lo = MIN (lo, ac->survival[j]);
        hi = MAX (hi, ac->survival[j]);
        last = j;
      }
  rb = tm_format_bytes (recopied);
  a->finding = g_strdup_printf (_("In %u young GCs' age tables, objects that reach age %u survive the next young GC "
                                "almost all (ages %u to %u: %.1f%% to %.1f%% of their bytes), yet the tenuring "
                                "threshold is %u: %s of older survivors, %.0f%% of each GC's survivors, are copied "
                                "again every time."),
                                ac->n_tables, k, k, last, lo * 100, hi * 100, ac->median_threshold, rb,
                                recopied / ac->mean_total * 100);
  a->action = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                            "Promote them after %u young GC: they live on anyway, and copying "
                                            "them costs pause time.",
                                            "Promote them after %u young GCs: they live on anyway, and copying "
                                            "them costs pause time.", k), k);
  a->flags = g_strdup_printf ("-XX:MaxTenuringThreshold=%u", k);
}

/* The survivors of young GCs exceed what the survivor space may hold, so
 * the JVM lowers the tenuring threshold and promotes objects that have
 * survived only a GC or two (unless they are known to live on). */
static void
rule_survivor_too_small (Ctx *c, const TmAgeCurve *ac)
{
  double f, scale;
  guint ratio = 0;
  TmAdvice *a;
  g_autofree char *need = NULL, *desired = NULL, *young = NULL;

  if (ac->n_tables < 10 || ac->desired_survivor == 0 || ac->n_forced < 3 || ac->n_forced * 10 < ac->n_tables * 3 ||
      ac->stable_age == 1)
    return;
  /* the survivor space must grow by f to keep the 90th percentile of the
   * survivors; SurvivorRatio (8 unless set) and TargetSurvivorRatio (50)
   * size it: survivor = young / (ratio + 2), desired = survivor * target */
  f = (double) ac->p90_total / (double) ac->desired_survivor;
  for (guint r = 8; r >= 1; r--)
    if (10.0 / (r + 2) * 1.6 >= f)
      {
        ratio = r;
        break;
      }
  a = add (c, "survivor-too-small", _("Survivor space too small: the tenuring threshold drops and survivors are "
                                      "promoted young"),
           (double) ac->n_forced / ac->n_tables * pause_share (c, young_pause_ns (c)));
  FOR_GCS (c, gc)
    {
      const TmGcAges *t = tm_trace_gc_ages (c->trace, gc->id);
      guint64 tot = 0;
      for (guint j = 1; t && j <= TM_GC_MAX_AGE; j++)
        tot += t->bytes[j];
      if (t && t->threshold > 0 && t->threshold < t->max_threshold && t->desired_survivor > 0 && tot > t->desired_survivor)
        evidence (a, gc->id);
    }
  need = tm_format_bytes ((double) ac->p90_total);
  desired = tm_format_bytes ((double) ac->desired_survivor);
  a->finding = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%u of %u young GCs keep more survivors than the survivor space may "
                                             "hold (90th percentile %s, desired survivor size %s): the JVM lowered "
                                             "the tenuring threshold to %u (maximum %u), so objects are promoted "
                                             "after one young GC whether or not they would die soon after.",
                                             "%u of %u young GCs keep more survivors than the survivor space may "
                                             "hold (90th percentile %s, desired survivor size %s): the JVM lowered "
                                             "the tenuring threshold to %u (maximum %u), so objects are promoted "
                                             "after that many young GCs whether or not they would die soon after.",
                                             ac->median_threshold),
                                ac->n_forced, ac->n_tables, need, desired, ac->median_threshold, ac->max_threshold);
  if (ratio == 8)
    {
      a->action = g_strdup_printf (_("Let the survivor space hold at least %.1f times as much: a target occupancy "
                                   "of 80%% (from 50%%) does."), f);
      a->flags = g_strdup ("-XX:TargetSurvivorRatio=80");
      return;
    }
  if (ratio > 0)
    {
      a->action = g_strdup_printf (_("Let the survivor space hold at least %.1f times as much: a survivor ratio of "
                                   "%u (from the default 8) and a target occupancy of 80%% (from 50%%)."), f, ratio);
      a->flags = g_strdup_printf ("-XX:SurvivorRatio=%u -XX:TargetSurvivorRatio=80", ratio);
      return;
    }
  /* even the smallest ratio is not enough: a larger young generation too */
  scale = f / (10.0 / 3 * 1.6);
  if (c->st.young_committed_bytes > 0)
    young = jvm_size (round_size (scale * (double) c->st.young_committed_bytes));
  a->action = g_strdup_printf (_("Let the survivor space hold at least %.1f times as much: the smallest survivor "
                               "ratio, a target occupancy of 80%%, and a young generation %.1f times as large."),
                               f, scale);
  a->flags = young ? g_strdup_printf ("-Xmn%s -XX:SurvivorRatio=1 -XX:TargetSurvivorRatio=80", young)
                   : g_strdup ("-XX:SurvivorRatio=1 -XX:TargetSurvivorRatio=80");
}

/* Minor GCs come so often that they take a tenth of the time, with room left in the heap. */
static void
rule_young_too_small (Ctx *c)
{
  const TmGcStats *s = &c->st;
  double overhead, used_after_p50;
  g_autofree double *after = NULL;
  guint n = 0;
  TmAdvice *a;
  g_autofree char *iv = NULL, *pz = NULL, *yc = NULL, *ar = NULL;

  if (s->n_minor < 10 || s->minor_interval_p50_ns <= 0 || c->max_heap <= 0)
    return;
  overhead = s->minor_pause_p50_ns / (s->minor_pause_p50_ns + s->minor_interval_p50_ns);
  if (overhead < 0.10)
    return;
  after = g_new (double, s->n_minor);
  FOR_GCS (c, gc)
    if (gc->kind == TM_GC_KIND_MINOR && n < s->n_minor)
      after[n++] = (double) gc->used_after;
  used_after_p50 = tm_quantile_sorted (after, n, 0.5);
  /* a full heap makes young GCs frequent too; that is heap-too-small */
  if (used_after_p50 > 0.6 * c->max_heap)
    return;
  a = add (c, "young-too-small", _("Young generation too small for the allocation rate"), overhead);
  FOR_GCS (c, gc)
    {
      const TmGc *prev = gc->id > 1 ? tm_trace_gc (c->trace, gc->id - 1) : NULL;
      if (gc->kind == TM_GC_KIND_MINOR && prev && gc->start_ns >= prev->end_ns
          && (double) (gc->start_ns - prev->end_ns) < 9.0 * (double) gc->pause_ns)
        evidence (a, gc->id);
    }
  iv = tm_format_duration (s->minor_interval_p50_ns);
  pz = tm_format_duration (s->minor_pause_p50_ns);
  ar = tm_format_bytes (s->alloc_rate);
  a->finding = g_strdup_printf (_("A minor GC every %s (median) that pauses %s: %.0f%% of the time in young "
                                "collections while the heap is only %.0f%% full after them (allocation "
                                "%s/s)."), iv, pz, overhead * 100, 100 * used_after_p50 / c->max_heap, ar);
  if (s->young_committed_bytes > 0)
    yc = jvm_size (round_size (3.0 * (double) s->young_committed_bytes));
  if (collector_is (c, "G1"))
    advise_to (a, _("Let G1 use a larger young generation: raise its lower bound (G1NewSizePercent, "
               "default 5%) so fewer, not longer, young pauses happen."),
               "-XX:+UnlockExperimentalVMOptions -XX:G1NewSizePercent=30");
  else
    {
      a->action = g_strdup_printf (_("A larger young generation (%s, three times the current one) makes minor "
                                   "GCs rarer; their pause depends on the survivors, not on the size."),
                                   yc ? yc : _("three times the current one"));
      a->flags = yc ? g_strdup_printf ("-Xmn%s", yc) : g_strdup ("-XX:NewRatio=1");
    }
}

/* GCs with a given cause; returns how many and their pause in *pause_ns. */
static guint
count_cause (Ctx *c, const char *what, double *pause_ns, guint *n_major)
{
  guint n = 0;

  *pause_ns = 0;
  if (n_major)
    *n_major = 0;
  FOR_GCS (c, gc)
    if (cause_has (gc, what))
      {
        n++;
        *pause_ns += (double) gc->pause_ns;
        if (n_major && gc->kind == TM_GC_KIND_MAJOR)
          (*n_major)++;
      }
  return n;
}

static void
evidence_cause (Ctx *c, TmAdvice *a, const char *what)
{
  FOR_GCS (c, gc)
    if (cause_has (gc, what))
      evidence (a, gc->id);
}

/* The program calls System.gc(). */
static void
rule_explicit_gc (Ctx *c)
{
  double pause;
  guint n_major;
  guint n = count_cause (c, "System.gc()", &pause, &n_major);
  TmAdvice *a;
  g_autofree char *pz = NULL;
  gboolean concurrent_capable = collector_is (c, "G1") || collector_is (c, "CMS");

  if (n == 0)
    return;
  a = add (c, "explicit-gc", _("The program calls System.gc()"), pause_share (c, pause));
  evidence_cause (c, a, "System.gc()");
  pz = tm_format_duration (pause);
  a->finding = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%u collection caused by System.gc() (%u of them full), pausing %s "
                                             "in all (%.1f%% of the run).",
                                             "%u collections caused by System.gc() (%u of them full), pausing %s "
                                             "in all (%.1f%% of the run).", n), n, n_major, pz,
                                100 * pause_share (c, pause));
  if (concurrent_capable)
    advise_to (a, _("Let System.gc() start a concurrent cycle instead of a full stop-the-world "
               "collection, or remove the calls (often in libraries or RMI's distributed GC)."),
               "-XX:+ExplicitGCInvokesConcurrent");
  else
    advise_to (a, _("Ignore the calls (the collector runs when it needs to), or remove them "
               "(often in libraries or RMI's distributed GC)."),
               "-XX:+DisableExplicitGC");
}

/* Collections started because metaspace reached its high-water mark. */
static void
rule_metaspace (Ctx *c)
{
  double pause;
  guint n_major;
  guint n = count_cause (c, "Metadata GC", &pause, &n_major);
  guint64 meta_used = 0;
  TmAdvice *a;
  g_autofree char *mu = NULL, *sz = NULL, *pz = NULL;

  /* one at start-up is how HotSpot sizes metaspace; two or a full GC are not */
  if (n < 2 && n_major == 0)
    return;
  a = add (c, "metaspace", _("Collections triggered by metaspace"), pause_share (c, pause));
  FOR_GCS (c, gc)
    if (cause_has (gc, "Metadata GC"))
      {
        guint64 b, af, cm;
        evidence (a, gc->id);
        if (tm_gc_space_kind_usage (c->trace, gc, TM_SPACE_KIND_NON_HEAP, &b, &af, &cm))
          meta_used = MAX (meta_used, b);
      }
  pz = tm_format_duration (pause);
  sz = jvm_size (round_size (MAX (2.0 * (double) meta_used, 64 * MIB)));
  if (meta_used > 0)
    {
      mu = tm_format_bytes ((double) meta_used);
      a->finding = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                 "%u collection (%u full) ran because class metadata reached the "
                                                 "metaspace threshold (up to %s in use), pausing %s.",
                                                 "%u collections (%u full) ran because class metadata reached the "
                                                 "metaspace threshold (up to %s in use), pausing %s.", n), n,
                                    n_major, mu, pz);
    }
  else
    a->finding = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                               "%u collection (%u full) ran because class metadata reached the "
                                               "metaspace threshold, pausing %s.",
                                               "%u collections (%u full) ran because class metadata reached the "
                                               "metaspace threshold, pausing %s.", n), n, n_major, pz);
  a->action = g_strdup_printf (_("Start with a higher metaspace threshold (%s) so class loading does not "
                               "trigger collections; if metadata keeps growing, look for a class-loader leak."),
                               sz);
  a->flags = g_strdup_printf ("-XX:MetaspaceSize=%s", sz);
}

/* G1: allocations of at least half a region go straight to the old generation. */
static void
rule_humongous (Ctx *c)
{
  double pause;
  guint n = count_cause (c, "Humongous Allocation", &pause, NULL);
  const char *rb = g_hash_table_lookup (c->trace->meta, "gclog.region_bytes");
  double region = rb ? g_ascii_strtod (rb, NULL) : 0;
  TmAdvice *a;
  g_autofree char *rs = NULL, *next = NULL;

  /* three and at least 5% of the GCs */
  if (n < 3 || n * 20 < c->st.n_gcs)
    return;
  a = add (c, "humongous", _("G1 humongous allocations trigger collections"), pause_share (c, pause));
  if (region > 0)
    rs = tm_format_bytes (region);
  evidence_cause (c, a, "Humongous Allocation");
  a->finding = g_strdup_printf (_("%u of %u GCs were started by humongous allocations (objects of at least "
                                "half a region, allocated directly in old regions)%s%s."), n, c->st.n_gcs,
                                rs ? _("; the region size is ") : "", rs ? rs : "");
  if (region > 0 && region < 32 * MIB)
    {
      next = jvm_size (MIN (32 * MIB, 4 * region));
      a->action = g_strdup_printf (_("Larger regions (%s) make these arrays ordinary objects; or allocate "
                                   "them in smaller pieces."), next);
      a->flags = g_strdup_printf ("-XX:G1HeapRegionSize=%s", next);
    }
  else
    advise_to (a, _("Larger regions make these arrays ordinary objects; or allocate them in smaller pieces."),
               "-XX:G1HeapRegionSize=32m");
}

/* To-space exhausted / evacuation failure / promotion failed. */
static void
rule_evacuation_failure (Ctx *c)
{
  const char *list = g_hash_table_lookup (c->trace->meta, "gclog.evacuation_failures");
  g_auto(GStrv) ids = list ? g_strsplit (list, ",", -1) : NULL;
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (guint32));
  TmAdvice *a;
  double pause = 0;
  gboolean g1 = collector_is (c, "G1");

  for (guint i = 0; ids && ids[i]; i++)
    {
      guint64 id = g_ascii_strtoull (ids[i], NULL, 10);
      if (id >= c->first && id <= c->last)
        {
          guint32 v = (guint32) id;
          g_array_append_val (found, v);
        }
    }
  /* JDK 20 and later name it in the pause line instead */
  FOR_GCS (c, gc)
    if (cause_has (gc, "Evacuation Failure"))
      {
        gboolean seen = FALSE;
        for (guint i = 0; i < found->len && !seen; i++)
          seen = g_array_index (found, guint32, i) == gc->id;
        if (!seen)
          g_array_append_val (found, gc->id);
      }
  if (found->len == 0)
    return;
  a = add (c, "evacuation-failure", g1 ? _("To-space exhausted: evacuation failures")
                                        : _("Promotion failures: the old generation could not take the survivors"),
           1.0);
  for (guint i = 0; i < found->len; i++)
    {
      guint32 id = g_array_index (found, guint32, i);
      evidence (a, id);
      pause += (double) tm_trace_gc (c->trace, id)->pause_ns;
    }
  a->finding = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                             "%u young collection found no free space to copy survivors to "
                                             "(pauses %.1f ms in all); such collections are slow and often "
                                             "followed by a full GC.",
                                             "%u young collections found no free space to copy survivors to "
                                             "(pauses %.1f ms in all); such collections are slow and often "
                                             "followed by a full GC.", found->len), found->len, pause / 1e6);
  if (g1)
    advise_to (a, _("Keep more of the heap free for evacuation (G1ReservePercent, default 10) and give "
               "the heap more room; start marking earlier if the old generation fills quickly."),
               "-XX:G1ReservePercent=20");
  else
    advise_to (a, _("The old generation was too full to take the promoted objects: give the heap more "
               "room, or start the concurrent cycle earlier."),
               "-XX:CMSInitiatingOccupancyFraction=60 -XX:+UseCMSInitiatingOccupancyOnly");
}

/* Latency goal under a throughput collector: long stop-the-world pauses. */
static void
rule_latency_pauses (Ctx *c)
{
  double target = c->params->pause_target_ms * 1e6;
  guint n_long = 0;
  TmAdvice *a;
  g_autofree char *p99 = NULL, *mx = NULL;

  if (c->params->goal != TM_ADVICE_GOAL_LATENCY)
    return;
  if (!collector_is (c, "Serial") && !collector_is (c, "Parallel"))
    return;
  FOR_GCS (c, gc)
    if ((double) gc->pause_ns > target)
      n_long++;
  if (c->st.pause_p99_ns <= target && c->st.pause_max_ns <= 2 * target)
    return;
  a = add (c, "latency-pauses", _("Long pauses under a throughput collector"), (double) n_long / MAX (1, c->st.n_gcs));
  FOR_GCS (c, gc)
    if ((double) gc->pause_ns > target)
      evidence (a, gc->id);
  p99 = tm_format_duration (c->st.pause_p99_ns);
  mx = tm_format_duration (c->st.pause_max_ns);
  a->finding = g_strdup_printf (_("The %s collector stops the program for %s at the 99th percentile and %s at "
                                "most (GC %u); %u pauses exceed the %.0f ms target."), c->st.collector, p99, mx,
                                c->st.pause_max_gc, n_long, c->params->pause_target_ms);
  a->action = g_strdup_printf (_("For latency use a collector that works concurrently: G1 with a pause goal "
                               "of %.0f ms, or ZGC when the heap is large."), c->params->pause_target_ms);
  a->flags = g_strdup_printf ("-XX:+UseG1GC -XX:MaxGCPauseMillis=%.0f", c->params->pause_target_ms);
}

/* ---- driver ----------------------------------------------------------- */

static int
compare_severity (gconstpointer a, gconstpointer b)
{
  const TmAdvice *x = *(TmAdvice *const *) a, *y = *(TmAdvice *const *) b;
  return (y->severity > x->severity) - (y->severity < x->severity);
}

GPtrArray *
tm_advise (const TmTrace *trace, guint32 first_gc, guint32 last_gc, const TmAdviceParams *params)
{
  TmAdviceParams defaults;
  Ctx c = { 0 };
  g_autoptr(GPtrArray) windows = NULL;
  gboolean leak;

  if (params == NULL)
    {
      tm_advice_params_init (&defaults);
      params = &defaults;
    }
  c.trace = trace;
  c.params = params;
  c.out = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_advice_free);
  tm_gc_stats_compute (trace, first_gc, last_gc, &c.st);
  c.first = c.st.first_gc;
  c.last = c.st.last_gc;
  if (c.st.n_gcs == 0)
    return c.out;

  c.max_heap = MAX (tm_trace_heap_limit (trace), (double) c.st.max_committed_bytes);

  /* windows of the whole run that overlap the range */
  windows = tm_windows_detect (trace, NULL, FALSE);
  c.windows = g_ptr_array_new ();
  for (guint i = 0; i < windows->len; i++)
    {
      const TmWindow *w = windows->pdata[i];
      if (w->suspicious && w->first_gc <= c.last && w->last_gc >= c.first)
        g_ptr_array_add (c.windows, (gpointer) w);
    }

  leak = rule_leak (&c);
  rule_heap_too_small (&c, leak);
  rule_premature_promotion (&c);
  rule_survivor_overflow (&c);
  {
    TmAgeCurve ac;
    if (tm_age_curve_compute (trace, c.first, c.last, &ac))
      {
        rule_tenuring_threshold (&c, &ac);
        rule_survivor_too_small (&c, &ac);
      }
  }
  rule_young_too_small (&c);
  rule_explicit_gc (&c);
  rule_metaspace (&c);
  rule_humongous (&c);
  rule_evacuation_failure (&c);
  rule_latency_pauses (&c);

  g_ptr_array_unref (c.windows);
  g_ptr_array_sort (c.out, compare_severity);
  return c.out;
}
