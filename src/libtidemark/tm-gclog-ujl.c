/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * JDK 9+ unified logging (-Xlog:gc, -Xlog:gc*): decorations in any
 * combination ([time][utctime][uptime][timemillis][uptimemillis]
 * [timenanos][uptimenanos][hostname][pid][tid][level][tags]), then the
 * message.  Pause collectors (Serial, Parallel, CMS, G1) give one event
 * per "Pause ..." line; ZGC and Shenandoah give one event per GC id, the
 * whole cycle, with its pauses summed.
 */
#include "tm-config.h"

#include <string.h>

#include "tm-gclog-private.h"
#include "tm-checked.h"

typedef struct {
  gboolean    has_uptime;
  guint64     uptime_ns;
  gboolean    has_wall;
  gint64      wall_ms;
  gboolean    gc_tag;
  gboolean    has_tags;     /* a [tags] decoration was seen */
  gboolean    debug;        /* level debug or trace */
  gboolean    bad_time;     /* looked like a time stamp but was not one */
  guint       n_known;      /* decorations recognised as time, level or tags */
  guint       n;            /* [decorations] of the line */
  guint       n_ns;         /* of them "...ns" stamps (timenanos, uptimenanos) */
  guint64     ns[2];
  gboolean    lone_ns;      /* the only time is one "...ns" stamp: uptimenanos or timenanos */
  const char *msg;
} TmUjlDecor;

static gboolean
all_digits (const char *s, const char *end)
{
  if (s >= end)
    return FALSE;
  for (; s < end; s++)
    if (!g_ascii_isdigit (*s))
      return FALSE;
  return TRUE;
}

static void
classify (const char *c, const char *ce, TmUjlDecor *d)
{
  gint64 ms;
  guint64 v;
  const char *q;

  while (ce > c && ce[-1] == ' ')
    ce--;
  while (c < ce && *c == ' ')
    c++;
  if (c >= ce)
    return;

  if (tm_gclog_parse_wall_ms (c, ce, &ms))
    {
      if (!d->has_wall)
        {
          d->has_wall = TRUE;
          d->wall_ms = ms;
        }
      d->n_known++;
      return;
    }
  if (ce - c >= 2 && memcmp (ce - 2, "ns", 2) == 0 && all_digits (c, ce - 2))
    {
      /* timenanos (the JVM's monotonic clock, not the epoch) or
       * uptimenanos: told apart in parse_decorations */
      q = c;
      if (tm_gclog_parse_decimal (&q, ce - 2, 0, &v) && d->n_ns < G_N_ELEMENTS (d->ns))
        d->ns[d->n_ns++] = v;
      d->n_known++;
      return;
    }
  if (ce - c >= 2 && memcmp (ce - 2, "ms", 2) == 0 && all_digits (c, ce - 2))
    {
      q = c;
      if (!tm_gclog_parse_decimal (&q, ce - 2, 0, &v))
        return;
      /* timemillis is since the epoch; uptime is small */
      if (v > G_GUINT64_CONSTANT (100000000000))
        {
          if (!d->has_wall)
            {
              d->has_wall = TRUE;
              d->wall_ms = (gint64) v;
            }
        }
      else
        {
          d->has_uptime = TRUE;
          d->uptime_ns = v * 1000000;
        }
      d->n_known++;
      return;
    }
  if (ce[-1] == 's' && g_ascii_isdigit (*c))
    {
      q = c;
      if (tm_gclog_parse_decimal (&q, ce - 1, 9, &v) && q == ce - 1)
        {
          d->has_uptime = TRUE;
          d->uptime_ns = v;
          d->n_known++;
        }
      else
        d->bad_time = TRUE;
      return;
    }
  if (all_digits (c, ce))
    return;   /* pid or tid */
  if ((ce - c == 5 && memcmp (c, "debug", 5) == 0) || (ce - c == 5 && memcmp (c, "trace", 5) == 0))
    {
      d->debug = TRUE;
      d->n_known++;
      return;
    }
  if ((ce - c == 4 && memcmp (c, "info", 4) == 0) || (ce - c == 7 && memcmp (c, "warning", 7) == 0) ||
      (ce - c == 5 && memcmp (c, "error", 5) == 0))
    {
      d->n_known++;
      return;
    }
  if (ce - c >= 2 && c[0] == 'g' && c[1] == 'c' && (ce - c == 2 || c[2] == ','))
    {
      d->gc_tag = TRUE;
      d->has_tags = TRUE;
      d->n_known++;
      return;
    }
  if (tm_gclog_find (c, ce, "safepoint") || tm_gclog_find (c, ce, "os,") || tm_gclog_find (c, ce, "os+"))
    d->n_known++;
  /* any other tag set ("class,load", "exceptions"): lower-case words */
  if (g_ascii_islower (*c))
    d->has_tags = TRUE;
}

/* A message only unified logging writes: "Using G1", "GC(12) Pause ...".
 * Strict, since it also recognises logs whose decorations say nothing
 * known (hostname, pid, tid) or that have none at all. */
static gboolean
ujl_message (const char *s, const char *end)
{
  static const char *const using[] = { "Using G1", "Using Serial", "Using Parallel", "Using Concurrent Mark Sweep",
                                       "Using The Z Garbage Collector", "Using Shenandoah", "Using Epsilon" };
  const char *q;

  for (guint i = 0; i < G_N_ELEMENTS (using); i++)
    if (tm_gclog_has_prefix (s, end, using[i]) && (gsize) (end - s) == strlen (using[i]))
      return TRUE;
  if (!tm_gclog_has_prefix (s, end, "GC("))
    return FALSE;
  for (q = s + 3; q < end && g_ascii_isdigit (*q); q++)
    ;
  return q > s + 3 && end - q >= 3 && q[0] == ')' && q[1] == ' ' && g_ascii_isupper (q[2]);
}

/* opaque: the count of decorations that say nothing known (-Xlog:...::
 * hostname, pid, tid) this log has, 0 when not known yet */
static gboolean
parse_decorations (const char *line, const char *end, guint opaque, TmUjlDecor *d)
{
  const char *q = line;
  guint n = 0;

  memset (d, 0, sizeof *d);
  while (q < end && *q == '[' && n < 16)
    {
      const char *close = memchr (q, ']', end - q);
      if (close == NULL)
        break;
      classify (q + 1, close, d);
      q = close + 1;
      n++;
    }
  while (q < end && *q == ' ')
    q++;
  d->msg = q;
  d->n = n;
  /* decorations come in a fixed order: timenanos before uptimenanos */
  if (d->n_ns == 2)
    {
      d->has_uptime = TRUE;
      d->uptime_ns = d->ns[1];
    }
  else if (d->n_ns == 1 && d->has_uptime)
    {
      /* with uptime or uptimemillis: the same clock if it agrees */
      guint64 u = d->uptime_ns, v = d->ns[0];
      if ((v > u ? v - u : u - v) < G_GUINT64_CONSTANT (1000000000))
        d->uptime_ns = v;
    }
  else if (d->n_ns == 1)
    {
      d->has_uptime = TRUE;
      d->uptime_ns = d->ns[0];
      d->lone_ns = TRUE;
    }
  return n > 0 && (d->n_known > 0 || n == opaque);
}

/* An undecorated line in a decorated log that may be GC data: a GC id,
 * a pause, a heap transition, or bytes that are not plain text. */
static gboolean
gc_like (const char *s, const char *end)
{
  for (const char *q = s; q < end; q++)
    if ((guchar) *q < 0x20 ? *q != '\t' : (guchar) *q >= 0x7f)
      return TRUE;
  return tm_gclog_find (s, end, "GC(") != NULL || tm_gclog_find (s, end, "Pause ") != NULL ||
         tm_gclog_find_transition (s, end) != NULL;
}

/* -Xlog:safepoint: JDK 17 "Safepoint "G1CollectForAllocation", ...",
 * JDK 9-16 "Total time for which application threads were stopped" */
static gboolean
safepoint_message (const char *s, const char *end)
{
  return tm_gclog_has_prefix (s, end, "Safepoint \"") ||
         tm_gclog_has_prefix (s, end, "Total time for which application threads were stopped");
}

gboolean
tm_gclog_ujl_sniff_line (const char *line, const char *end)
{
  TmUjlDecor d;

  if (!parse_decorations (line, end, 0, &d))
    /* decorations none, or only hostname, pid and tid */
    return (d.n == 0 || d.n_known == 0) && ujl_message (d.msg, end);
  if (!d.has_uptime && !d.has_wall && !d.gc_tag)
    return FALSE;
  return d.gc_tag || tm_gclog_has_prefix (d.msg, end, "GC(") || tm_gclog_has_prefix (d.msg, end, "Using ") ||
         safepoint_message (d.msg, end);
}

gboolean
tm_gclog_ujl_line_time (const char *line, const char *end, TmGclogTime *t)
{
  TmUjlDecor d;

  if (!parse_decorations (line, end, 0, &d) || (!d.has_uptime && !d.has_wall))
    return FALSE;
  t->has_uptime = d.has_uptime;
  t->uptime_ns = d.uptime_ns;
  t->has_wall = d.has_wall;
  t->wall_ms = d.wall_ms;
  return TRUE;
}

/* The duration ending the message: "9.618ms", "0.250s", "12us". */
static gboolean
trailing_duration (const char *s, const char *end, guint64 *ns, const char **tok)
{
  const char *q;
  guint scale;
  guint unit_len;

  while (end > s && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  q = end;
  while (q > s && q[-1] != ' ')
    q--;
  if (end - q >= 3 && memcmp (end - 2, "ms", 2) == 0)
    scale = 6, unit_len = 2;
  else if (end - q >= 3 && memcmp (end - 2, "us", 2) == 0)
    scale = 3, unit_len = 2;
  else if (end - q >= 3 && memcmp (end - 2, "ns", 2) == 0)
    scale = 0, unit_len = 2;
  else if (end - q >= 2 && end[-1] == 's')
    scale = 9, unit_len = 1;
  else
    return FALSE;
  {
    const char *r = q;
    if (!tm_gclog_parse_decimal (&r, end - unit_len, scale, ns) || r != end - unit_len)
      return FALSE;
  }
  if (tok)
    *tok = q;
  return TRUE;
}

/* "Pause Young (Normal) (G1 Evacuation Pause) 14M->12M(128M) 7.033ms":
 * name words, then parenthesised groups. */
typedef struct {
  char        name[64];
  const char *groups[4];
  gsize       group_len[4];
  guint       n_groups;
  const char *after;   /* first byte after the groups */
} TmUjlTitle;

static void
parse_title (const char *s, const char *end, TmUjlTitle *t)
{
  const char *q = s;
  gsize nl = 0;

  memset (t, 0, sizeof *t);
  while (q < end)
    {
      const char *w = q, *we;
      if (*q == '(' || g_ascii_isdigit (*q))
        break;
      we = q;
      while (we < end && *we != ' ')
        we++;
      if (nl + (gsize) (we - w) + 1 < sizeof t->name)
        {
          if (nl > 0)
            t->name[nl++] = ' ';
          memcpy (t->name + nl, w, we - w);
          nl += we - w;
        }
      q = we;
      while (q < end && *q == ' ')
        q++;
    }
  t->name[nl] = '\0';
  while (q < end && *q == '(')
    {
      int depth = 0;
      const char *g = q;
      for (; q < end; q++)
        {
          if (*q == '(')
            depth++;
          else if (*q == ')' && --depth == 0)
            break;
        }
      if (q >= end)
        {
          q = g;
          break;
        }
      if (t->n_groups < G_N_ELEMENTS (t->groups))
        {
          t->groups[t->n_groups] = g + 1;
          t->group_len[t->n_groups] = (gsize) (q - g - 1);
          t->n_groups++;
        }
      q++;
      while (q < end && *q == ' ')
        q++;
    }
  t->after = q;
}

static gboolean
group_is (const TmUjlTitle *t, guint i, const char *word)
{
  return t->group_len[i] == strlen (word) && memcmp (t->groups[i], word, t->group_len[i]) == 0;
}

static gboolean
has_group (const TmUjlTitle *t, const char *word)
{
  for (guint i = 0; i < t->n_groups; i++)
    if (group_is (t, i, word))
      return TRUE;
  return FALSE;
}

/* G1 young subtypes are not causes. */
static const char *
title_cause (TmGclogParser *p, const TmUjlTitle *t)
{
  static const char *const subtypes[] = { "Normal", "Concurrent Start", "Prepare Mixed", "Mixed",
                                          "Young", "Old", "Global" };
  for (guint i = t->n_groups; i-- > 0;)
    {
      gboolean sub = FALSE;
      for (guint j = 0; j < G_N_ELEMENTS (subtypes); j++)
        sub = sub || group_is (t, i, subtypes[j]);
      if (!sub)
        {
          g_autofree char *c = g_strndup (t->groups[i], t->group_len[i]);
          return tm_trace_builder_intern (p->b, c);
        }
    }
  if (g_str_has_prefix (t->name, "Pause "))
    return tm_trace_builder_intern (p->b, t->name + 6);
  return tm_trace_builder_intern (p->b, t->name);
}

static TmGclogEvent *
open_event (TmGclogParser *p, gint64 id)
{
  gpointer v = g_hash_table_lookup (p->open_by_id, &id);
  return v ? &g_array_index (p->events, TmGclogEvent, GPOINTER_TO_SIZE (v) - 1) : NULL;
}

static TmGclogEvent *
add_open_event (TmGclogParser *p, gint64 id)
{
  TmGclogEvent *e = tm_gclog_new_event (p, id);

  e->open = TRUE;
  g_hash_table_insert (p->open_by_id, g_memdup2 (&id, sizeof id), GSIZE_TO_POINTER (p->events->len));
  return e;
}

static void
close_event (TmGclogParser *p, TmGclogEvent *e)
{
  e->open = FALSE;
  g_hash_table_remove (p->open_by_id, &e->jvm_id);
}

static void
set_heap (TmGclogEvent *e, const char *s, const char *end, gboolean cycle)
{
  const char *t = tm_gclog_find_transition (s, end);
  guint64 b, a, c;

  if (t == NULL || !tm_gclog_parse_transition (&t, end, &b, &a, &c))
    return;
  /* A cycle's occupancy before is the highest it logs: Shenandoah's
   * heap grows while it marks and evacuates, and the last "Concurrent
   * cleanup A->B" may start above the first. */
  if (!e->has_heap || !cycle)
    e->heap_before = b;
  else
    e->heap_before = MAX (e->heap_before, b);
  e->heap_after = a;
  if (c)
    e->heap_committed = c;
  e->has_heap = TRUE;
}

/* A young GC that escalated into a full GC (JDK 9-16 Serial/CMS): the
 * full GC's event, closed just before, lies inside the young pause. */
static void
merge_nested (TmGclogParser *p, TmGclogEvent *y)
{
  const guint64 slack = 1000000;   /* the log's millisecond resolution */
  guint idx = (guint) (y - &g_array_index (p->events, TmGclogEvent, 0));

  /* with start lines the full GC's event comes after the young one */
  for (guint k = idx > 8 ? idx - 8 : 0; k < p->events->len && k <= idx + 8; k++)
    {
      TmGclogEvent *f = &g_array_index (p->events, TmGclogEvent, k);
      if (k == idx || f->deleted || f->open || f->cycle || f->jvm_id <= y->jvm_id || f->kind != TM_GC_KIND_MAJOR)
        continue;
      if (f->start_ns + slack >= y->start_ns && f->end_ns <= y->end_ns + slack)
        {
          f->start_ns = y->start_ns;
          f->end_ns = MAX (f->end_ns, y->end_ns);
          f->pause_ns = MAX (f->pause_ns, y->pause_ns);
          if (y->n_usage > 0)
            {
              f->usage_head = y->usage_head;
              f->usage_tail = y->usage_tail;
              f->n_usage = y->n_usage;
            }
          if (!f->has_heap && y->has_heap)
            {
              f->has_heap = TRUE;
              f->heap_before = y->heap_before;
              f->heap_after = y->heap_after;
              f->heap_committed = y->heap_committed;
            }
          y->deleted = TRUE;
          return;
        }
    }
}

static TmGcKind
pause_kind (TmGclogParser *p, const TmUjlTitle *t, const char *cause)
{
  if (g_str_equal (t->name, "Pause Young"))
    return has_group (t, "Mixed") ? TM_GC_KIND_MIXED : TM_GC_KIND_MINOR;
  if (g_str_equal (t->name, "Pause Mixed"))
    return TM_GC_KIND_MIXED;
  if (g_str_equal (t->name, "Pause Full"))
    return TM_GC_KIND_MAJOR;
  if (g_str_equal (t->name, "Pause Initial Mark"))
    {
      /* JDK 9/10 G1 logs its initial-mark young pause under this name */
      if ((p->collector && g_str_equal (p->collector, "G1")) || g_str_has_prefix (cause, "G1 "))
        return TM_GC_KIND_MINOR;
      return TM_GC_KIND_CONCURRENT;
    }
  if (g_str_equal (t->name, "Pause Remark") || g_str_equal (t->name, "Pause Cleanup") ||
      g_str_equal (t->name, "Pause Final Remark"))
    return TM_GC_KIND_CONCURRENT;
  return TM_GC_KIND_UNKNOWN;
}

static void
pause_line (TmGclogParser *p, gint64 id, const char *s, const char *end)
{
  TmUjlTitle t;
  TmGclogEvent *e;
  guint64 dur;
  const char *tok;
  gboolean has_dur;
  const char *name;

  parse_title (s, end, &t);
  name = tm_trace_builder_intern (p->b, t.name);
  has_dur = trailing_duration (t.after, end, &dur, &tok);
  e = open_event (p, id);
  if (e != NULL && e->name[0] != '\0' && e->name != name)
    {
      close_event (p, e);   /* never ended: keep what it has */
      e = NULL;
    }
  if (!has_dur)
    {
      if (tm_gclog_find_transition (t.after, end) != NULL)
        {
          tm_gclog_warn (p, "pause without a duration");
          return;
        }
      /* start line: "GC(3) Pause Young (Allocation Failure)" */
      if (e == NULL)
        e = add_open_event (p, id);
      e->name = name;
      e->start_ns = p->now_ns;
      return;
    }
  if (e == NULL)
    e = add_open_event (p, id);
  e->name = name;
  e->line = p->line_no;
  e->end_ns = p->now_ns;
  e->pause_ns = dur;
  e->has_duration = TRUE;
  e->start_ns = p->now_ns >= dur ? p->now_ns - dur : 0;
  e->cause = title_cause (p, &t);
  e->kind = pause_kind (p, &t, e->cause);
  set_heap (e, t.after, tok, FALSE);
  close_event (p, e);
  if (e->kind == TM_GC_KIND_MINOR)
    merge_nested (p, e);
}

/* Per-generation detail lines; returns FALSE if the line is not one. */
static gboolean
detail_line (TmGclogParser *p, gint64 id, const char *s, const char *end)
{
  static const struct { const char *prefix; const char *space; TmSpaceKind kind; gboolean regions; } map[] = {
    { "DefNew:", "DefNew", TM_SPACE_KIND_YOUNG, FALSE },
    { "PSYoungGen:", "PSYoungGen", TM_SPACE_KIND_YOUNG, FALSE },
    { "ParNew:", "ParNew", TM_SPACE_KIND_YOUNG, FALSE },
    { "Tenured:", "Tenured", TM_SPACE_KIND_OLD, FALSE },
    { "ParOldGen:", "ParOldGen", TM_SPACE_KIND_OLD, FALSE },
    { "PSOldGen:", "PSOldGen", TM_SPACE_KIND_OLD, FALSE },
    { "CMS:", "CMS", TM_SPACE_KIND_OLD, FALSE },
    { "Eden regions:", "Eden", TM_SPACE_KIND_YOUNG, TRUE },
    { "Survivor regions:", "Survivor", TM_SPACE_KIND_SURVIVOR, TRUE },
    { "Old regions:", "Old", TM_SPACE_KIND_OLD, TRUE },
    { "Archive regions:", "Old", TM_SPACE_KIND_OLD, TRUE },
    { "Humongous regions:", "Humongous", TM_SPACE_KIND_HUMONGOUS, TRUE },
    { "Metaspace:", "Metaspace", TM_SPACE_KIND_NON_HEAP, FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (s < end && *s == map[i].prefix[0] && tm_gclog_has_prefix (s, end, map[i].prefix))
      {
        const char *q = s + strlen (map[i].prefix);
        guint64 b, a, c;
        TmGclogEvent *e;

        /* not "PSYoungGen::resize_spaces(...)" (gc+ergo at trace level) */
        if (q < end && *q != ' ')
          return FALSE;
        while (q < end && *q == ' ')
          q++;
        if (!tm_gclog_parse_transition (&q, end, &b, &a, &c))
          {
            /* JDK 17 Metaspace has "used" forms we do not need */
            if (map[i].kind != TM_SPACE_KIND_NON_HEAP)
              tm_gclog_warn (p, "cannot read the %s occupancy", map[i].space);
            return TRUE;
          }
        e = open_event (p, id);
        if (e == NULL)
          e = add_open_event (p, id);
        tm_gclog_add_usage (p, e, tm_gclog_space (p, map[i].space, map[i].kind), b, a, c, map[i].regions);
        return TRUE;
      }
  return FALSE;
}

/* ZGC "Allocation Stall (thread) 0.706ms", "Relocation Stall (...) ...":
 * application threads that waited for memory, not GC pauses. */
static gboolean
stall_line (TmGclogParser *p, gint64 id, const char *s, const char *end)
{
  guint64 dur;
  const char *tok, *open, *close = NULL;
  g_autofree char *thread = NULL;

  if (!tm_gclog_has_prefix (s, end, "Allocation Stall (") && !tm_gclog_has_prefix (s, end, "Relocation Stall ("))
    return FALSE;
  if (!trailing_duration (s, end, &dur, &tok))
    return TRUE;
  open = memchr (s, '(', tok - s);
  for (const char *q = tok; open != NULL && q > open; q--)
    if (*q == ')')
      {
        close = q;
        break;
      }
  if (open != NULL && close != NULL)
    thread = g_strndup (open + 1, close - open - 1);
  tm_gclog_add_phase (p, TM_GC_PHASE_STALL, id, p->now_ns, dur, s, tok, thread);
  return TRUE;
}

static TmGclogEvent *
cycle_event (TmGclogParser *p, gint64 id, guint64 line_duration)
{
  TmGclogEvent *e = open_event (p, id);

  if (e == NULL)
    {
      e = add_open_event (p, id);
      e->cycle = TRUE;
      e->kind = TM_GC_KIND_CONCURRENT;
      e->start_ns = p->now_ns >= line_duration ? p->now_ns - line_duration : 0;
      e->name = g_intern_static_string ("Concurrent cycle");
      if (p->pending_cause)
        e->cause = p->pending_cause;
      p->pending_cause = NULL;
      p->n_concurrent_cycles++;
    }
  return e;
}

/* ZGC and Shenandoah: every line of GC(n) belongs to one cycle. */
void
tm_gclog_cycle_line (TmGclogParser *p, gint64 id, const char *s, const char *end)
{
  guint64 dur = 0;
  const char *tok = end;
  gboolean has_dur = trailing_duration (s, end, &dur, &tok);
  TmGclogEvent *e;

  if (tm_gclog_has_prefix (s, end, "Garbage Collection (") || tm_gclog_has_prefix (s, end, "Major Collection (") ||
      tm_gclog_has_prefix (s, end, "Minor Collection ("))
    {
      TmUjlTitle t;
      parse_title (s, end, &t);
      e = cycle_event (p, id, 0);
      e->name = tm_trace_builder_intern (p->b, t.name);
      e->cause = title_cause (p, &t);
      if (tm_gclog_has_prefix (s, end, "Minor "))   /* generational ZGC */
        {
          e->kind = TM_GC_KIND_MINOR;
          p->generational = TRUE;
        }
      else if (tm_gclog_has_prefix (s, end, "Major "))
        p->generational = TRUE;
      if (tm_gclog_has_prefix (t.after, end, "Aborted") && end - t.after == 7)
        {
          /* the JVM exits during the collection: it collected nothing */
          e->aborted = TRUE;
          if (p->n_concurrent_cycles > 0)
            p->n_concurrent_cycles--;
          e->end_ns = MAX (e->end_ns, p->now_ns);
          e->line = p->line_no;
          close_event (p, e);
        }
      else if (tm_gclog_find_transition (t.after, end) != NULL)
        {
          /* the end line: "...(Allocation Rate) 3334M(84%)->2230M(56%) [0.250s]" */
          set_heap (e, t.after, has_dur ? tok : end, FALSE);
          if (e->heap_committed == 0)
            e->heap_committed = p->max_heap;
          e->end_ns = p->now_ns;
          e->line = p->line_no;
          if (has_dur && p->now_ns >= dur)
            e->start_ns = MIN (e->start_ns, p->now_ns - dur);
          close_event (p, e);
        }
      return;
    }

  /* generational ZGC: one generation's collection inside a major one
   * ("Y: Young Generation 196M(0%)->152M(0%) 0.124s"), a span of its own */
  if (p->gen_prefix && (tm_gclog_has_prefix (s, end, "Young Generation") ||
                        tm_gclog_has_prefix (s, end, "Old Generation")))
    {
      /* a minor collection is its young generation's: no span twice */
      e = cycle_event (p, id, 0);
      if (has_dur && e->kind != TM_GC_KIND_MINOR && tm_gclog_find_transition (s, tok) != NULL)
        {
          const char *prefix = p->gen_prefix;
          p->gen_prefix = NULL;
          tm_gclog_add_phase (p, TM_GC_PHASE_CYCLE, id, p->now_ns, dur, s, tok, NULL);
          g_array_index (p->phases, TmGcPhase, p->phases->len - 1).depth = 1;
          p->gen_prefix = prefix;
        }
      return;
    }

  /* debug and trace levels add the sub-phases of the phases logged at
   * info ("Pause Roots Setup" of JDK 11-16, "Concurrent Mark Follow"):
   * their time is already counted */
  if (p->line_debug && has_dur && tm_gclog_has_prefix (s, end, "Pause "))
    return;

  if (tm_gclog_has_prefix (s, end, "Pause "))
    {
      TmUjlTitle t;
      if (!has_dur)
        {
          cycle_event (p, id, 0);
          return;   /* start line of a pause */
        }
      parse_title (s, end, &t);
      e = cycle_event (p, id, dur);
      {
        TmGcPhaseKind k = g_str_equal (t.name, "Pause Full") ? TM_GC_PHASE_FULL
                        : g_str_has_prefix (t.name, "Pause Degenerated") ? TM_GC_PHASE_DEGENERATED
                        : TM_GC_PHASE_PAUSE;
        g_autofree char *point = k == TM_GC_PHASE_DEGENERATED && t.n_groups > 0
                                 ? g_strndup (t.groups[0], t.group_len[0]) : NULL;
        tm_gclog_add_phase (p, k, id, p->now_ns, dur, s, tok, point);
      }
      /* the log's time stamps are rounded: the pause began dur before its end */
      if (p->now_ns >= dur)
        e->start_ns = MIN (e->start_ns, p->now_ns - dur);
      e->pause_ns = tm_add_sat (e->pause_ns, dur);
      e->end_ns = MAX (e->end_ns, p->now_ns);
      e->line = p->line_no;
      e->has_duration = TRUE;
      if (g_str_equal (t.name, "Pause Full"))
        {
          e->kind = TM_GC_KIND_MAJOR;
          e->name = tm_trace_builder_intern (p->b, t.name);
          if (e->cause[0] == '\0')
            e->cause = title_cause (p, &t);
        }
      else if (g_str_has_prefix (t.name, "Pause Degenerated"))
        {
          g_autofree char *c = t.n_groups > 0
            ? g_strdup_printf ("Degenerated GC (%.*s)", (int) t.group_len[0], t.groups[0])
            : g_strdup ("Degenerated GC");
          if (e->cause[0] == '\0')
            e->cause = tm_trace_builder_intern (p->b, c);
        }
      if (has_group (&t, "Young"))   /* generational Shenandoah */
        {
          e->kind = TM_GC_KIND_MINOR;
          p->generational = TRUE;
        }
      set_heap (e, t.after, tok, TRUE);
      return;
    }

  if (stall_line (p, id, s, end))
    return;
  if (tm_gclog_has_prefix (s, end, "Concurrent "))
    {
      guint depth;
      e = cycle_event (p, id, has_dur ? dur : 0);
      if (has_dur)
        tm_gclog_add_phase (p, TM_GC_PHASE_CONCURRENT, id, p->now_ns, dur, s, tok, NULL);
      depth = tm_gclog_phase_depth (p, id, has_dur);
      if (has_dur && p->line_debug)
        {
          /* inside a phase logged at info even without start lines */
          g_array_index (p->phases, TmGcPhase, p->phases->len - 1).depth = MAX (depth, 1);
          e->end_ns = MAX (e->end_ns, p->now_ns);
          return;
        }
      if (has_dur)
        {
          p->n_concurrent_phases++;
          p->concurrent_ns = tm_add_sat (p->concurrent_ns, dur);
          e->end_ns = MAX (e->end_ns, p->now_ns);
          set_heap (e, s, tok, TRUE);
        }
      return;
    }

  /* ZGC heap table: committed size at Relocate End */
  {
    const char *q = s;
    while (q < end && *q == ' ')
      q++;
    if (tm_gclog_has_prefix (q, end, "Capacity:"))
      {
        guint64 v = 0, col[4] = { 0 };
        guint n = 0;
        q += 9;
        while (q < end && n < 4)
          {
            while (q < end && (*q == ' ' || *q == '-'))
              q++;
            if (!tm_gclog_parse_size (&q, end, &v))
              break;
            col[n++] = v;
            while (q < end && *q != ' ')
              q++;   /* "(100%)" */
            while (q < end && *q == ' ')
              q++;
            if (q < end && *q == '(')
              {
                while (q < end && *q != ')')
                  q++;
                if (q < end)
                  q++;
              }
          }
        if (n == 4)
          {
            e = cycle_event (p, id, 0);
            e->heap_committed = col[3];
          }
      }
  }
}

/* ---- -Xlog:gc+heap=debug: "Heap before GC invocations=N (full M):" ---- */

/* "<generation>   total 19648K, used 17472K [0x..." or, ZGC, "ZHeap
 * used 44M, capacity 64M, max capacity 64M": the used and committed
 * bytes of a top-level space of the block. */
static void
heap_block_space (TmGclogParser *p, const char *s, const char *end)
{
  const char *total = tm_gclog_find (s, end, " total ");
  const char *used = tm_gclog_find (s, end, "used ");
  guint64 u = 0, c = 0;
  const char *q;

  if (tm_gclog_has_prefix (s, end, "ZHeap ") && used != NULL)
    {
      const char *cap = tm_gclog_find (used, end, "capacity ");
      q = used + 5;
      if (tm_gclog_parse_size (&q, end, &u))
        p->hb_used = tm_add_sat (p->hb_used, u);
      q = cap ? cap + 9 : end;
      if (cap && tm_gclog_parse_size (&q, end, &c))
        p->hb_committed = tm_add_sat (p->hb_committed, c);
      if (p->collector == NULL)
        tm_gclog_set_collector (p, "ZGC");
      return;
    }
  if (total == NULL || used == NULL || used < total)
    return;
  q = total + 7;
  while (q < end && *q == ' ')
    q++;
  if (tm_gclog_parse_size (&q, end, &c))
    p->hb_committed = tm_add_sat (p->hb_committed, c);
  q = used + 5;
  if (tm_gclog_parse_size (&q, end, &u))
    p->hb_used = tm_add_sat (p->hb_used, u);
}

/* The block read so far goes to its GC's event. */
static void
heap_block_flush (TmGclogParser *p)
{
  TmGclogEvent *e;

  if (!p->hb_active)
    return;
  p->hb_active = FALSE;
  if (p->cycle_mode)
    e = cycle_event (p, p->hb_id, 0);
  else
    {
      e = open_event (p, p->hb_id);
      if (e == NULL && p->events->len > 0)
        {
          /* the after block printed after the pause line */
          TmGclogEvent *last = &g_array_index (p->events, TmGclogEvent, p->events->len - 1);
          if (last->jvm_id == p->hb_id && !last->deleted)
            e = last;
        }
      if (e == NULL)
        {
          e = add_open_event (p, p->hb_id);
          e->start_ns = e->end_ns = p->hb_time;
        }
    }
  if (p->hb_after)
    {
      e->hb |= 2;
      e->hb_used_after = p->hb_used;
      e->hb_committed = p->hb_committed;
      e->hb_full_after = p->hb_full;
      if (!e->has_duration)
        e->end_ns = MAX (e->end_ns, p->hb_time);
    }
  else
    {
      e->hb |= 1;
      e->hb_used_before = p->hb_used;
      e->hb_full_before = p->hb_full;
      if (!e->has_duration && !e->cycle)
        e->start_ns = MIN (e->start_ns, p->hb_time);
    }
}

/* A line of a heap block of GC id; FALSE if it is none (and the block
 * before it, if any, is complete). */
static gboolean
heap_block_line (TmGclogParser *p, gint64 id, const char *s, const char *end)
{
  gboolean before = tm_gclog_has_prefix (s, end, "Heap before GC invocations=");
  gboolean after = !before && tm_gclog_has_prefix (s, end, "Heap after GC invocations=");

  if (before || after)
    {
      const char *f = tm_gclog_find (s, end, "(full ");
      guint64 full = 0;

      heap_block_flush (p);
      if (f != NULL)
        {
          f += 6;
          if (!tm_gclog_parse_decimal (&f, end, 0, &full))
            full = 0;
        }
      p->hb_active = TRUE;
      p->hb_after = after;
      p->hb_id = id;
      p->hb_time = p->now_ns;
      p->hb_full = (guint32) MIN (full, G_MAXUINT32);
      p->hb_used = 0;
      p->hb_committed = 0;
      /* JDK 9-16 print the first space on the header's line: "Heap
       * before GC invocations=9 (full 0): garbage-first heap   total ..." */
      f = tm_gclog_find (s, end, "):");
      if (f != NULL)
        {
          f += 2;
          while (f < end && *f == ' ')
            f++;
          if (f < end)
            heap_block_space (p, f, end);
        }
      return TRUE;
    }
  if (!p->hb_active || id != p->hb_id)
    {
      heap_block_flush (p);
      return FALSE;
    }
  if (tm_gclog_has_prefix (s, end, "region size "))
    {
      /* G1: what its region counts are in bytes */
      const char *q = s + 12;
      guint64 v;
      if (p->region_bytes == 0 && tm_gclog_parse_size (&q, end, &v))
        p->region_bytes = v;
      return TRUE;
    }
  if (tm_gclog_find (s, end, " total ") != NULL || tm_gclog_find (s, end, "used ") != NULL ||
      tm_gclog_find (s, end, " space ") != NULL)
    {
      /* sub-spaces (eden, from, to, the space) and Metaspace are
       * indented deeper or name no "total": not summed */
      if (!tm_gclog_has_prefix (s, end, "Metaspace") && !tm_gclog_has_prefix (s, end, "class space"))
        heap_block_space (p, s, end);
      return TRUE;
    }
  heap_block_flush (p);
  return FALSE;
}

/* G1's marking cycle as a whole (JDK 9 "Concurrent Cycle") */
static gboolean
g1_cycle_line (const char *s, const char *end)
{
  return tm_gclog_has_prefix (s, end, "Concurrent Mark Cycle") || tm_gclog_has_prefix (s, end, "Concurrent Cycle") ||
         tm_gclog_has_prefix (s, end, "Concurrent Undo Cycle");
}

static void
pause_mode_concurrent (TmGclogParser *p, gint64 id, const char *s, const char *end)
{
  guint64 dur;
  const char *tok;
  gboolean cycle = g1_cycle_line (s, end);

  if (!trailing_duration (s, end, &dur, &tok))
    {
      if (!cycle)
        tm_gclog_phase_depth (p, id, FALSE);
      return;   /* a phase starts */
    }
  tm_gclog_add_phase (p, cycle ? TM_GC_PHASE_CYCLE : TM_GC_PHASE_CONCURRENT, id, p->now_ns, dur, s, tok, NULL);
  if (!cycle)
    tm_gclog_phase_depth (p, id, TRUE);
  if (cycle || tm_gclog_has_prefix (s, end, "Concurrent Reset"))
    p->n_concurrent_cycles++;
  else
    {
      p->n_concurrent_phases++;
      p->concurrent_ns = tm_add_sat (p->concurrent_ns, dur);
    }
}

static void
non_gc_message (TmGclogParser *p, const char *s, const char *end)
{
  if (safepoint_message (s, end))
    {
      p->n_safepoint_lines++;
      return;
    }
  if (tm_gclog_has_prefix (s, end, "Using "))
    {
      static const struct { const char *text; const char *name; } map[] = {
        { "Using G1", "G1" }, { "Using Serial", "Serial" }, { "Using Parallel", "Parallel" },
        { "Using Concurrent Mark Sweep", "CMS" }, { "Using The Z Garbage Collector", "ZGC" },
        { "Using Shenandoah", "Shenandoah" }, { "Using Epsilon", "Epsilon" },
      };
      for (guint i = 0; i < G_N_ELEMENTS (map); i++)
        if (tm_gclog_has_prefix (s, end, map[i].text))
          tm_gclog_set_collector (p, map[i].name);
      /* The JVM says this in its first second: a lone "...ns" stamp
       * minutes past zero is timenanos, the monotonic clock (time since
       * boot), so times count from the log's first stamp instead. */
      if (p->line_lone_ns && !p->ns_monotonic && p->now_ns >= 60 * G_GUINT64_CONSTANT (1000000000) &&
          p->events->len == 0)
        {
          p->ns_monotonic = TRUE;
          p->now_ns = p->now_ns > p->lone_ns_base ? p->now_ns - p->lone_ns_base : 0;
          p->run_uptime_max = p->now_ns;   /* no restart of the uptime */
        }
      return;
    }
  if (tm_gclog_has_prefix (s, end, "Version: ") && p->vm_version == NULL)
    {
      const char *v = s + 9, *ve = v;
      while (ve < end && *ve != ' ')
        ve++;
      p->vm_version = g_strndup (v, ve - v);
      return;
    }
  if (tm_gclog_has_prefix (s, end, "Heap Region Size: ") || tm_gclog_has_prefix (s, end, "Heap region size: "))
    {
      const char *q = s + 18;
      guint64 v;
      if (tm_gclog_parse_size (&q, end, &v))
        p->region_bytes = v;
      return;
    }
  if (tm_gclog_has_prefix (s, end, "Heap Max Capacity: ") || tm_gclog_has_prefix (s, end, "Max Capacity: "))
    {
      const char *q = s + (s[0] == 'H' ? 19 : 14);
      guint64 v;
      if (tm_gclog_parse_size (&q, end, &v))
        p->max_heap = v;
      return;
    }
  if (tm_gclog_has_prefix (s, end, "Heap: ") && p->collector != NULL && g_str_equal (p->collector, "Epsilon"))
    {
      /* Epsilon collects nothing; it samples its heap ("Heap: 65536K
       * reserved, 65536K (100.00%) committed, 3421K (5.22%) used") */
      const char *q = tm_gclog_find (s, end, "committed, ");
      guint64 v;
      if (q != NULL && (q += 11, tm_gclog_parse_size (&q, end, &v)) && tm_gclog_has_prefix (q, end, " ("))
        {
          p->heap_samples++;
          p->sampled_peak = MAX (p->sampled_peak, v);
        }
      return;
    }
  if (tm_gclog_has_prefix (s, end, "Trigger: ") || tm_gclog_has_prefix (s, end, "Trigger ("))
    {
      /* Shenandoah says why the next cycle starts ("Trigger (Young): ..."
       * in generational mode) */
      const char *c = memchr (s, ':', end - s), *ce;
      if (c == NULL)
        return;
      c += 1;
      while (c < end && *c == ' ')
        c++;
      ce = tm_gclog_find (c, end, ". ");
      g_autofree char *cause = g_strndup (c, MIN ((ce ? ce : end) - c, 120));
      p->pending_cause = tm_trace_builder_intern (p->b, cause);
      if (p->collector == NULL)
        tm_gclog_set_collector (p, "Shenandoah");
      return;
    }
  stall_line (p, -1, s, end);
}

/* A log line inside [line, end) after other text: the first '[' from
 * which the log's decorations follow (as many as its lines have, at
 * least one known), then a GC message. */
static const char *
embedded_line (TmGclogParser *p, const char *line, const char *end)
{
  /* program output before a log line is short, and so is a decoration:
   * bounded, so that a long line of brackets costs no quadratic time */
  const char *limit = end - line > 4096 ? line + 4096 : end;

  for (const char *b = memchr (line + 1, '[', limit - line - 1); b != NULL;
       b = b + 1 < limit ? memchr (b + 1, '[', limit - b - 1) : NULL)
    {
      TmUjlDecor d;
      if (memchr (b, ']', MIN (end - b, 96)) == NULL)
        continue;
      if (parse_decorations (b, end, p->ujl_opaque, &d) && d.n == p->ujl_n_decor && d.n_known > 0 &&
          (d.gc_tag || tm_gclog_has_prefix (d.msg, end, "GC(")))
        return b;
    }
  return NULL;
}

void
tm_gclog_ujl_line (TmGclogParser *p, const char *line, const char *end)
{
  TmUjlDecor d;
  const char *s, *q;
  gint64 id = -1;

  while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
    end--;
  if (line == end)
    return;
  if (!parse_decorations (line, end, p->ujl_opaque, &d) && d.n > 0 && d.n_known == 0 && p->ujl_opaque == 0 &&
      ujl_message (d.msg, end))
    p->ujl_opaque = d.n;   /* the first line of a log decorated with hostname, pid or tid only */
  if (d.n == 0 || (d.n_known == 0 && d.n != p->ujl_opaque))
    {
      const char *inner;
      /* a log written to stdout: program output without a line end runs
       * into the next log line ("step 12 [0.374s][info][gc,start] GC(77)
       * Pause Full (System.gc())") */
      if (p->ujl_decorated && (inner = embedded_line (p, line, end)) != NULL)
        {
          if (p->n_output_lines++ == 0)
            p->first_output_line = p->line_no;
          tm_gclog_ujl_line (p, inner, end);
          return;
        }
      /* -Xlog with decorations "none", or a damaged line */
      if (*line == '[' && (!p->ujl_decorated || gc_like (line, end)))
        {
          tm_gclog_warn (p, "not a unified logging line");
          return;
        }
      if (p->ujl_decorated)
        {
          /* A message of another tag that spans lines (exceptions, class
           * loading): only its first line is decorated. */
          if (!p->prev_gc_tag)
            return;
          /* the indented rest of a message of the gc tags that spans lines
           * (G1's "WorkerPolicy::calc_default_active_workers()" at trace
           * level continues with " active_workers_by_JT: ...") */
          if (*line == ' ' || *line == '\t')
            return;
          /* program output mixed into a log written to stdout
           * (-verbose:gc, -Xlog:gc:stdout), "[main] INFO ..." too: GC
           * data is not lost, so a note, not a warning */
          if (!gc_like (line, end))
            {
              if (p->n_output_lines++ == 0)
                p->first_output_line = p->line_no;
              return;
            }
          /* GC text without decorations (a damaged line, or one
           * another writer cut in two): reported once at the end
           * (tm_gclog_ujl_finish) */
          if (p->n_foreign_lines++ == 0)
            p->first_foreign_line = p->line_no;
          return;
        }
      d.msg = line;
    }
  else
    {
      p->ujl_decorated = TRUE;
      p->ujl_n_decor = d.n;
      p->prev_gc_tag = d.gc_tag || !d.has_tags;
    }
  if (d.bad_time)
    tm_gclog_warn (p, "unreadable time stamp");
  p->gen_prefix = NULL;
  p->line_debug = d.debug;

  if (d.lone_ns)
    {
      if (!p->have_lone_ns)
        {
          p->have_lone_ns = TRUE;
          p->lone_ns_base = d.uptime_ns;
        }
      if (p->ns_monotonic)
        d.uptime_ns = d.uptime_ns > p->lone_ns_base ? d.uptime_ns - p->lone_ns_base : 0;
    }
  p->line_lone_ns = d.lone_ns;
  if (d.has_uptime)
    {
      p->now_ns = tm_gclog_uptime (p, d.uptime_ns, tm_gclog_has_prefix (d.msg, end, "Using ") && ujl_message (d.msg, end));
      p->have_uptime = TRUE;
      if (d.has_wall && p->start_unix_ns == 0 && d.wall_ms > 0)
        p->start_unix_ns = (guint64) d.wall_ms * 1000000 - MIN (d.uptime_ns, (guint64) d.wall_ms * 1000000);
    }
  else if (d.has_wall)
    {
      if (!p->have_wall_base)
        {
          p->have_wall_base = TRUE;
          p->wall_base_ms = d.wall_ms;
          if (d.wall_ms > 0)
            p->start_unix_ns = (guint64) d.wall_ms * 1000000;
        }
      p->now_ns = d.wall_ms > p->wall_base_ms ? (guint64) (d.wall_ms - p->wall_base_ms) * 1000000 : 0;
    }

  s = d.msg;
  if (!tm_gclog_has_prefix (s, end, "GC("))
    {
      heap_block_flush (p);
      non_gc_message (p, s, end);
      return;
    }
  q = s + 3;
  {
    guint64 v;
    if (!tm_gclog_parse_decimal (&q, end, 0, &v) || q >= end || *q != ')' || v > G_MAXINT64)
      {
        tm_gclog_warn (p, "unreadable GC id");
        return;
      }
    id = (gint64) v;
  }
  if (p->events->len == 0)
    {
      /* the GCs a log without GC events names (said in its note) */
      if (p->gc_ids == NULL)
        p->gc_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      if (!g_hash_table_contains (p->gc_ids, &id))
        g_hash_table_add (p->gc_ids, g_memdup2 (&id, sizeof id));
    }
  q++;
  while (q < end && *q == ' ')
    q++;
  /* G1, JDK 11-19: said on a line of its own, before the pause ends */
  if (tm_gclog_has_prefix (q, end, "To-space exhausted") || tm_gclog_has_prefix (q, end, "Evacuation Failure"))
    {
      if (p->evac_failed_ids == NULL)
        p->evac_failed_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
      g_hash_table_add (p->evac_failed_ids, g_memdup2 (&id, sizeof id));
      return;
    }
  /* generational ZGC: "y: ..." (a minor collection), "Y: ..." (the young
   * generation in a major one) and "O: ..." (the old generation) */
  if (end - q >= 3 && (q[0] == 'Y' || q[0] == 'y' || q[0] == 'O') && q[1] == ':' && q[2] == ' ')
    {
      p->gen_prefix = q[0] == 'O' ? "O: " : "Y: ";
      q += 3;
      p->generational = TRUE;
      if (p->collector == NULL)
        tm_gclog_set_collector (p, "ZGC");
    }

  if (p->collector == NULL)
    {
      /* an excerpt without its "Using ..." line */
      if (tm_gclog_has_prefix (q, end, "Garbage Collection (") || tm_gclog_has_prefix (q, end, "Pause Mark Start") ||
          tm_gclog_has_prefix (q, end, "Major Collection (") || tm_gclog_has_prefix (q, end, "Minor Collection ("))
        tm_gclog_set_collector (p, "ZGC");
      else if (tm_gclog_has_prefix (q, end, "Pause Init Mark") || tm_gclog_has_prefix (q, end, "Concurrent marking") ||
               tm_gclog_has_prefix (q, end, "Concurrent reset"))
        tm_gclog_set_collector (p, "Shenandoah");
      else if (tm_gclog_has_prefix (q, end, "Eden regions:") || tm_gclog_find (q, end, "(G1 ") != NULL ||
               tm_gclog_has_prefix (q, end, "Concurrent Mark Cycle"))
        tm_gclog_set_collector (p, "G1");
    }

  if (heap_block_line (p, id, q, end))
    return;
  if (p->cycle_mode)
    {
      tm_gclog_cycle_line (p, id, q, end);
      return;
    }
  if (tm_gclog_has_prefix (q, end, "Pause "))
    pause_line (p, id, q, end);
  else if (tm_gclog_has_prefix (q, end, "Concurrent "))
    pause_mode_concurrent (p, id, q, end);
  else if (!detail_line (p, id, q, end) && (*q == 'D' || *q == 'A' || *q == '-'))
    {
      /* gc+age: the survivors of this GC by age (also when printed
       * after its pause line) */
      TmGclogEvent *e = open_event (p, id);
      guint32 ages;
      if (e == NULL && p->events->len > 0 &&
          g_array_index (p->events, TmGclogEvent, p->events->len - 1).jvm_id == id)
        e = &g_array_index (p->events, TmGclogEvent, p->events->len - 1);
      ages = e ? e->ages : 0;
      if (tm_gclog_age_line (p, q, end, &ages))
        {
          if (e == NULL)
            e = add_open_event (p, id);
          e->ages = ages;
        }
    }
}

void
tm_gclog_ujl_finish (TmGclogParser *p)
{
  heap_block_flush (p);
  if (p->n_foreign_lines > 0)
    tm_trace_builder_warning (p->b, 0,
                              "line %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " lines are not unified logging"
                              " (program output?) and were skipped, the first here",
                              p->first_foreign_line, p->n_foreign_lines);
  p->n_foreign_lines = 0;   /* the next part of a series reports its own */
}

/* Program output among the lines: said in META, not as a problem. */
void
tm_gclog_ujl_output_note (TmGclogParser *p)
{
  char num[32];
  g_autofree char *note = NULL;

  if (p->n_output_lines == 0)
    return;
  g_snprintf (num, sizeof num, "%" G_GUINT64_FORMAT, p->n_output_lines);
  tm_trace_builder_meta (p->b, "gclog.program_output_lines", num);
  note = g_strdup_printf ("%" G_GUINT64_FORMAT " lines of program output (not unified logging) were skipped, "
                          "the first at line %" G_GUINT64_FORMAT, p->n_output_lines, p->first_output_line);
  tm_trace_builder_meta (p->b, "note", note);
}
