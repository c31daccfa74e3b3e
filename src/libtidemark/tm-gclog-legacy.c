/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The pre-JDK 9 text format (-verbose:gc, -XX:+PrintGCDetails, with or
 * without -XX:+PrintGCDateStamps / PrintGCTimeStamps / PrintGCID):
 *
 *   2022-08-01T17:16:33.170+0000: 0.169: #0: [GC (Allocation Failure)
 *     0.170: [ParNew: 8678K->1081K(9792K), 0.0088699 secs]
 *     8678K->8064K(31680K), 0.0106548 secs] [Times: ...]
 *
 * One bracketed record per stop-the-world pause.  Records may span lines
 * (CMS prints concurrent phases in the middle of a ParNew record, class
 * unloading messages split Tenured records), so text is collected until
 * the brackets balance.  G1 prints its generation sizes on a detail line
 * after the record.
 */
#include "tm-config.h"

#include <string.h>

#include "tm-gclog-private.h"
#include "tm-checked.h"

#define MAX_RECORD (64 * 1024)

/* Skips "2022-08-01T17:16:33.170+0000: ", "0.169: " and "#0: " prefixes. */
static const char *
parse_prefix (const char *s, const char *end, gboolean *has_wall, gint64 *wall_ms,
              gboolean *has_uptime, guint64 *uptime_ns, gint64 *gc_id)
{
  for (;;)
    {
      const char *q = s;
      guint64 v;
      gint64 ms;

      while (q < end && *q == ' ')
        q++;
      if (tm_gclog_parse_wall_ms (q, end, &ms))
        {
          /* the stamp itself has colons: find ": " after the zone */
          const char *c = tm_gclog_find (q + 19, end, ": ");
          if (c == NULL)
            return s;
          if (has_wall && !*has_wall)
            {
              *has_wall = TRUE;
              *wall_ms = ms;
            }
          s = c + 2;
          continue;
        }
      if (q < end && *q == '#')
        {
          const char *r = q + 1;
          if (tm_gclog_parse_decimal (&r, end, 0, &v) && tm_gclog_has_prefix (r, end, ": "))
            {
              if (gc_id)
                *gc_id = (gint64) MIN (v, (guint64) G_MAXINT64);
              s = r + 2;
              continue;
            }
          return s;
        }
      if (q < end && g_ascii_isdigit (*q))
        {
          const char *r = q;
          if (tm_gclog_parse_decimal (&r, end, 9, &v) && r < end && *r == ':' &&
              (r + 1 == end || r[1] == ' ' || r[1] == '['))
            {
              if (has_uptime && !*has_uptime)
                {
                  *has_uptime = TRUE;
                  *uptime_ns = v;
                }
              s = r + 1;
              continue;
            }
        }
      return q;
    }
}

/* "[CMS-concurrent-mark: ...]", with -XX:+UseAdaptiveSizePolicy (and
 * CMS) "[ASCMS-concurrent-mark: ...]" */
static gboolean
cms_concurrent (const char *q, const char *end)
{
  return tm_gclog_has_prefix (q, end, "[CMS-concurrent") || tm_gclog_has_prefix (q, end, "[ASCMS-concurrent");
}

static gboolean
record_start (const char *q, const char *end)
{
  return (tm_gclog_has_prefix (q, end, "[GC") && !tm_gclog_has_prefix (q, end, "[GC Worker")) ||
         tm_gclog_has_prefix (q, end, "[Full GC") ||
         cms_concurrent (q, end) || tm_gclog_has_prefix (q, end, "[Pause ") ||
         tm_gclog_has_prefix (q, end, "[Concurrent ");
}

/* What the JVM prints at exit (or with -XX:+PrintHeapAtGC around each
 * GC): a log holding only this is a log with no GC yet. */
gboolean
tm_gclog_exit_summary_line (const char *line, const char *end)
{
  static const char *const spaces[] = { " PSYoungGen ", " par new generation ", " def new generation ",
                                        " garbage-first heap ", " ZHeap ", " Shenandoah Heap" };

  if (tm_gclog_has_prefix (line, end, "{Heap before GC invocations=") ||
      tm_gclog_has_prefix (line, end, "Heap after GC invocations=") ||
      (tm_gclog_has_prefix (line, end, "Shenandoah Heap") && end - line == 15))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (spaces); i++)
    if (tm_gclog_has_prefix (line, end, spaces[i]) && tm_gclog_find (line, end, " total ") != NULL)
      return TRUE;
  return FALSE;
}

gboolean
tm_gclog_legacy_sniff_line (const char *line, const char *end)
{
  gboolean hw = FALSE, hu = FALSE;
  gint64 wm = 0, id = -1;
  guint64 un = 0;
  const char *q = parse_prefix (line, end, &hw, &wm, &hu, &un, &id);

  /* a JDK 8 log that has not logged a GC yet: its flags say it will */
  if (tm_gclog_has_prefix (line, end, "CommandLine flags: ") &&
      (tm_gclog_find (line, end, "-XX:+PrintGC") != NULL || tm_gclog_find (line, end, "-Xloggc:") != NULL))
    return TRUE;
  if (!hw && !hu)
    /* -verbose:gc or -XX:+PrintGCDetails without -XX:+PrintGCTimeStamps
     * (the JVM's default, often on the console among program output):
     * a whole record, "[GC (Allocation Failure)  65536K->1560K(251392K),
     * 0.0021437 secs]" */
    return (tm_gclog_has_prefix (line, end, "[GC ") || tm_gclog_has_prefix (line, end, "[Full GC ")) &&
           tm_gclog_find_transition (line, end) != NULL && tm_gclog_find (line, end, " secs]") != NULL;
  return record_start (q, end);
}

gboolean
tm_gclog_legacy_line_time (const char *line, const char *end, TmGclogTime *t)
{
  gint64 id = -1;
  const char *q;

  memset (t, 0, sizeof *t);
  q = parse_prefix (line, end, &t->has_wall, &t->wall_ms, &t->has_uptime, &t->uptime_ns, &id);
  return (t->has_wall || t->has_uptime) && q < end && *q == '[';
}

/* A comma between two digits at c (not before s): the decimal comma of
 * locales that log "6616,888: " and "0,0500000 secs". */
static gboolean
decimal_comma (const char *s, const char *c)
{
  return *c == ',' && c > s && g_ascii_isdigit (c[-1]) && g_ascii_isdigit (c[1]);
}

/* Where the decimal number that ends at q starts (not before s). */
static const char *
number_start (const char *s, const char *q)
{
  while (q > s && (g_ascii_isdigit (q[-1]) || q[-1] == '.' || decimal_comma (s, q - 1)))
    q--;
  return q;
}

/* "1.578: [CMS-concurrent-abortable-preclean: 0.002/0.190 secs]" or
 * "[GC concurrent-mark-end, 0.0099227 secs]", which ended at t_ns
 * (GC id gc_id, -1 if none): */
static void
concurrent_record (TmGclogParser *p, const char *s, const char *end, guint64 t_ns, gint64 gc_id)
{
  const char *secs = tm_gclog_find (s, end, " secs");
  const char *q, *name, *name_end;
  guint64 ns;

  if (tm_gclog_find (s, end, "-start") != NULL && secs == NULL)
    return;
  if (secs == NULL)
    return;
  /* the number before " secs"; CMS writes cpu/wall, take wall */
  q = number_start (s, secs);
  if (!tm_gclog_parse_decimal (&q, secs, 9, &ns))
    return;
  if (tm_gclog_find (s, end, "concurrent-reset:") != NULL || tm_gclog_find (s, end, "concurrent-cleanup-end") != NULL)
    p->n_concurrent_cycles++;
  p->n_concurrent_phases++;
  p->concurrent_ns = tm_add_sat (p->concurrent_ns, ns);
  /* the name: "CMS-concurrent-mark", "concurrent-mark" (G1, without "-end") */
  name = s + 1;
  if (tm_gclog_has_prefix (name, end, "GC "))
    name += 3;
  for (name_end = name; name_end < end && *name_end != ':' && *name_end != ',' && *name_end != ']'; name_end++)
    ;
  if (name_end - name > 4 && memcmp (name_end - 4, "-end", 4) == 0)
    name_end -= 4;
  tm_gclog_add_phase (p, TM_GC_PHASE_CONCURRENT, gc_id, t_ns, ns, name, name_end, NULL);
}

/* The time stamp before a record printed into another one. */
static guint64
intruder_time (TmGclogParser *p, const char *s, const char *end, gint64 *gc_id)
{
  gboolean hw = FALSE, hu = FALSE;
  gint64 wm = 0;
  guint64 un = 0;

  *gc_id = -1;
  parse_prefix (s, end, &hw, &wm, &hu, &un, gc_id);
  if (hu)
    return tm_add_sat (un, p->time_offset);
  if (hw && p->have_wall_base)
    return wm > p->wall_base_ms ? (guint64) (wm - p->wall_base_ms) * 1000000 : 0;
  return p->now_ns;
}

/* End of the bracket opened at s (or end). */
static const char *
match_bracket (const char *s, const char *end)
{
  int depth = 0;
  for (const char *q = s; q < end; q++)
    {
      if (*q == '[')
        depth++;
      else if (*q == ']' && --depth == 0)
        return q + 1;
    }
  return end;
}

static gboolean
stamp_char (char c)
{
  return g_ascii_isdigit (c) || c == '.' || c == ':' || c == '#' || c == '+' || c == '-' || c == 'T' || c == ' ';
}

static int
bracket_depth (const char *s, gsize len)
{
  int depth = 0;
  for (gsize i = 0; i < len; i++)
    {
      if (s[i] == '[')
        depth++;
      else if (s[i] == ']')
        depth--;
    }
  return depth;
}

/* The record so far grows line by line: its bracket depth is counted
 * on what is added, so a long record costs linear time, not quadratic. */
static void
text_append (GString *out, int *depth, const char *s, gsize len)
{
  g_string_append_len (out, s, len);
  *depth += bracket_depth (s, len);
}

static void
rec_clear (TmGclogParser *p)
{
  g_string_truncate (p->rec, 0);
  p->rec_depth = 0;
}

/* Appends [s, end) to out (depth: its bracket depth) without the
 * concurrent records and class unloading messages printed into the middle
 * of another record or line. */
static void
append_clean_to (TmGclogParser *p, GString *out, int *depth, const char *s, const char *end)
{
  /* the first three are records of their own, with a time stamp */
  static const char *const intruders[] = { "[CMS-concurrent", "[ASCMS-concurrent", "[GC concurrent",
                                           "[G1Ergonomics", "[Unloading class", "[Loaded " };

  while (s < end)
    {
      const char *best = NULL;
      guint which = 0;

      /* one pass over the '[' of the line */
      for (const char *f = memchr (s, '[', end - s); f != NULL && best == NULL;
           f = f + 1 < end ? memchr (f + 1, '[', end - f - 1) : NULL)
        for (guint i = 0; i < G_N_ELEMENTS (intruders); i++)
          if (tm_gclog_has_prefix (f, end, intruders[i]))
            {
              best = f;
              which = i;
              break;
            }
      if (best == NULL)
        {
          text_append (out, depth, s, end - s);
          return;
        }
      {
        const char *from = best, *to = match_bracket (best, end);
        if (which <= 3)
          {
            /* its own time stamp before it, and "[Times: ...]" after it */
            while (from > s && (stamp_char (from[-1]) || decimal_comma (s, from - 1)))
              from--;
            while (from < best && from[0] == ' ')
              from++;
            if (which <= 2)
              {
                gint64 id;
                guint64 t = intruder_time (p, from, to, &id);
                concurrent_record (p, best, to, t, id);
              }
            {
              const char *t = to;
              while (t < end && *t == ' ')
                t++;
              if (tm_gclog_has_prefix (t, end, "[Times:"))
                to = match_bracket (t, end);
            }
          }
        /* "[Tenured[Unloading class xyz]\n: 1614K->...": only the message goes */
        text_append (out, depth, s, from - s);
        s = to;
      }
    }
}

static void
append_clean (TmGclogParser *p, const char *s, const char *end)
{
  append_clean_to (p, p->rec, &p->rec_depth, s, end);
}

static gboolean
blank (const GString *s)
{
  for (gsize i = 0; i < s->len; i++)
    if (s->str[i] != ' ' && s->str[i] != '\t')
      return FALSE;
  return TRUE;
}

typedef struct {
  gboolean old_collected;   /* an old generation was collected too */
  gboolean young_collected;
  gboolean cms_initial_mark;
  gboolean cms_remark;
} TmLegacyFlags;

static void
gen_entry (TmGclogParser *p, TmGclogEvent *e, const char *s, const char *end, TmLegacyFlags *fl)
{
  static const struct { const char *prefix; const char *space; TmSpaceKind kind; } map[] = {
    { "DefNew", "DefNew", TM_SPACE_KIND_YOUNG },
    { "ParNew", "ParNew", TM_SPACE_KIND_YOUNG },
    { "ASParNew", "ParNew", TM_SPACE_KIND_YOUNG },
    { "PSYoungGen", "PSYoungGen", TM_SPACE_KIND_YOUNG },
    { "Tenured", "Tenured", TM_SPACE_KIND_OLD },
    { "ParOldGen", "ParOldGen", TM_SPACE_KIND_OLD },
    { "PSOldGen", "PSOldGen", TM_SPACE_KIND_OLD },
    { "CMS Perm", "Perm", TM_SPACE_KIND_NON_HEAP },
    { "CMS", "CMS", TM_SPACE_KIND_OLD },
    { "ASCMS", "CMS", TM_SPACE_KIND_OLD },
    { "PSPermGen", "Perm", TM_SPACE_KIND_NON_HEAP },
    { "Perm", "Perm", TM_SPACE_KIND_NON_HEAP },
    { "Metaspace", "Metaspace", TM_SPACE_KIND_NON_HEAP },
  };
  const char *colon;

  while (s < end && (*s == ' ' || *s == '['))
    s++;
  if (tm_gclog_has_prefix (s, end, "1 AS"))   /* adaptive-size CMS */
    s += 4;
  else if (tm_gclog_has_prefix (s, end, "1 "))
    s += 2;
  if (tm_gclog_has_prefix (s, end, "CMS-initial-mark"))
    {
      fl->cms_initial_mark = TRUE;
      return;
    }
  if (tm_gclog_has_prefix (s, end, "CMS-remark"))
    {
      fl->cms_remark = TRUE;
      return;
    }
  colon = memchr (s, ':', end - s);
  if (colon == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (tm_gclog_has_prefix (s, colon, map[i].prefix))
      {
        const char *q = tm_gclog_find_transition (colon, end);
        guint64 b, a, c;

        if (q == NULL || !tm_gclog_parse_transition (&q, end, &b, &a, &c))
          return;
        tm_gclog_add_usage (p, e, tm_gclog_space (p, map[i].space, map[i].kind), b, a, c, FALSE);
        if (map[i].kind == TM_SPACE_KIND_OLD)
          fl->old_collected = TRUE;
        else if (map[i].kind == TM_SPACE_KIND_YOUNG)
          fl->young_collected = TRUE;
        if (p->collector == NULL)
          {
            if (g_str_equal (map[i].space, "DefNew"))
              tm_gclog_set_collector (p, "Serial");
            else if (g_str_equal (map[i].space, "PSYoungGen"))
              tm_gclog_set_collector (p, "Parallel");
            else if (g_str_equal (map[i].space, "ParNew") || g_str_equal (map[i].space, "CMS"))
              tm_gclog_set_collector (p, "CMS");
          }
        return;
      }
}

/* The pause: the last "N secs" of the top-level text. */
static gboolean
record_pause (const char *t, const char *end, guint64 *ns)
{
  const char *secs = NULL, *f = t;
  const char *q;

  while ((f = tm_gclog_find (f, end, " secs")) != NULL)
    secs = f++;
  if (secs == NULL)
    return FALSE;
  q = number_start (t, secs);
  return tm_gclog_parse_decimal (&q, secs, 9, ns);
}

static gboolean
group_word (const char *g, gsize n, const char *w)
{
  return n == strlen (w) && memcmp (g, w, n) == 0;
}

/* The JDK 8 Shenandoah backport writes "[Pause Init Mark (process
 * weakrefs), 3.341 ms]" and "[Concurrent cleanup 1613M->1361M(1636M),
 * 0.092 ms]" without GC ids; cycles are told apart by their first phase. */
static void
shenandoah_record (TmGclogParser *p, const char *s, const char *end)
{
  GString *msg;
  const char *comma;
  gboolean start;

  if (end > s && end[-1] == ']')
    end--;
  s++;   /* '[' */
  start = tm_gclog_find (s, end, ", start") != NULL;
  if (p->collector == NULL)
    tm_gclog_set_collector (p, "Shenandoah");
  if (tm_gclog_has_prefix (s, end, "Concurrent reset") && start)
    {
      p->legacy_cycle++;
      p->legacy_cycle_marked = FALSE;
    }
  else if (tm_gclog_has_prefix (s, end, "Pause Init Mark") && start)
    {
      if (p->legacy_cycle_marked)
        p->legacy_cycle++;
      p->legacy_cycle_marked = TRUE;
    }
  else if (tm_gclog_has_prefix (s, end, "Pause Full") && start)
    {
      p->legacy_cycle++;
      p->legacy_cycle_marked = TRUE;
    }
  if (start)
    return;
  /* rebuild the unified-logging form: "Pause Init Mark (...) 3.341ms" */
  comma = NULL;
  for (const char *f = s; (f = tm_gclog_find (f, end, ", ")) != NULL; f++)
    comma = f;
  msg = g_string_new (NULL);
  if (comma != NULL)
    {
      const char *num = comma + 2;
      g_string_append_len (msg, s, comma - s);
      g_string_append_c (msg, ' ');
      for (const char *q = num; q < end; q++)
        if (*q != ' ')
          g_string_append_c (msg, *q);
    }
  else
    g_string_append_len (msg, s, end - s);
  tm_gclog_cycle_line (p, p->legacy_cycle, msg->str, msg->str + msg->len);
  g_string_free (msg, TRUE);
}

static void
parse_record (TmGclogParser *p, const char *s, const char *end, guint64 t_ns, gint64 gc_id)
{
  char top[2048];
  gsize nt = 0;
  const char *q, *rec_end = match_bracket (s, end);
  TmGclogEvent *e;
  TmLegacyFlags fl = { 0 };
  guint64 pause_ns = 0;
  const char *name_end, *g;
  gboolean full, g1_pause, remark, cleanup, mixed = FALSE;
  const char *cause = "";
  char cause_buf[128];

  if (tm_gclog_has_prefix (s, end, "[Pause ") || tm_gclog_has_prefix (s, end, "[Concurrent "))
    {
      if (tm_gclog_has_prefix (s, end, "[Concurrent ") && !p->cycle_mode && p->collector != NULL)
        return;
      shenandoah_record (p, s, rec_end);
      return;
    }
  if (tm_gclog_has_prefix (s, end, "[GC concurrent") || cms_concurrent (s, end))
    {
      concurrent_record (p, s, rec_end, t_ns, gc_id);
      return;
    }

  e = tm_gclog_new_event (p, gc_id);
  p->last_event = (gint64) p->events->len - 1;
  e->start_ns = t_ns;

  /* depth-1 text into `top`; each depth-2 bracket is a generation entry */
  for (q = s + 1; q < rec_end - 1; q++)
    {
      if (*q == '[')
        {
          const char *close = match_bracket (q, rec_end);
          char inner[512];
          gsize ni = 0;
          int depth = 0;
          for (const char *r = q; r < close; r++)
            {
              if (*r == '[')
                depth++;
              else if (*r == ']')
                depth--;
              else if (depth == 1 && ni < sizeof inner - 1)
                inner[ni++] = *r;
            }
          gen_entry (p, e, inner, inner + ni, &fl);
          q = close - 1;
          continue;
        }
      if (nt < sizeof top - 1)
        top[nt++] = *q;
    }
  top[nt] = '\0';
  /* CMS/Parallel: the young collection could not promote everything */
  if (tm_gclog_find (s, rec_end, "promotion failed") != NULL)
    e->evac_failed = TRUE;

  name_end = top;
  while (*name_end == ' ')
    name_end++;
  full = g_str_has_prefix (name_end, "Full GC");
  g1_pause = g_str_has_prefix (name_end, "GC pause");
  remark = g_str_has_prefix (name_end, "GC remark") || g_str_has_prefix (name_end, "GC-- remark");
  cleanup = g_str_has_prefix (name_end, "GC cleanup");
  if (!full && !g_str_has_prefix (name_end, "GC"))
    {
      tm_gclog_warn (p, "unknown record \"%.40s\"", name_end);
      e->deleted = TRUE;
      return;
    }

  /* parenthesised groups after the name: causes and G1 pause types */
  g = name_end + (full ? 7 : g1_pause ? 8 : remark ? 9 : cleanup ? 10 : 2);
  while (*g == ' ' || *g == '-')
    g++;
  while (*g == '(')
    {
      int depth = 0;
      const char *c = g;
      for (; *c; c++)
        {
          if (*c == '(')
            depth++;
          else if (*c == ')' && --depth == 0)
            break;
        }
      if (*c == '\0')
        break;
      {
        const char *w = g + 1;
        gsize n = (gsize) (c - g - 1);
        if (group_word (w, n, "to-space overflow") || group_word (w, n, "to-space exhausted"))
          e->evac_failed = TRUE;
        if (group_word (w, n, "mixed") || group_word (w, n, "partial"))
          mixed = TRUE;
        else if (!group_word (w, n, "young") && !group_word (w, n, "initial-mark") &&
                 !group_word (w, n, "to-space overflow") && !group_word (w, n, "to-space exhausted") &&
                 cause[0] == '\0')
          {
            g_snprintf (cause_buf, sizeof cause_buf, "%.*s", (int) MIN (n, sizeof cause_buf - 1), w);
            cause = cause_buf;
          }
      }
      g = c + 1;
      while (*g == ' ')
        g++;
    }

  if (!record_pause (top, top + nt, &pause_ns))
    {
      tm_gclog_warn (p, "record without a pause time");
      e->deleted = TRUE;
      return;
    }

  if (full)
    e->kind = TM_GC_KIND_MAJOR;
  else if (g1_pause)
    e->kind = mixed ? TM_GC_KIND_MIXED : TM_GC_KIND_MINOR;
  else if (remark || cleanup || fl.cms_initial_mark || fl.cms_remark ||
           ((g_str_equal (cause, "CMS Initial Mark") || g_str_equal (cause, "CMS Final Remark")) &&
            !fl.young_collected))   /* not the scavenge before the remark */
    e->kind = TM_GC_KIND_CONCURRENT;
  else if (fl.old_collected)
    e->kind = TM_GC_KIND_MAJOR;   /* a young GC that went on to collect the old generation */
  else
    e->kind = TM_GC_KIND_MINOR;

  if (cause[0] == '\0')
    {
      if (remark || fl.cms_remark)
        cause = "Remark";
      else if (cleanup)
        cause = "Cleanup";
      else if (fl.cms_initial_mark)
        cause = "Initial Mark";
    }
  e->cause = tm_trace_builder_intern (p->b, cause);
  e->pause_ns = pause_ns;
  e->end_ns = t_ns + pause_ns;
  e->has_duration = TRUE;
  e->open = FALSE;

  /* heap total: "A->B(C)" at the top level, or "A(C)" (CMS marks) */
  {
    const char *tr = tm_gclog_find_transition (top, top + nt);
    guint64 b, a, c;
    if (tr != NULL && tm_gclog_parse_transition (&tr, top + nt, &b, &a, &c))
      {
        e->has_heap = TRUE;
        e->heap_before = b;
        e->heap_after = a;
        e->heap_committed = c;
      }
    else
      {
        for (const char *r = top; *r; r++)
          {
            const char *x = r;
            guint64 used, cap;
            if ((r == top || r[-1] == ' ') && g_ascii_isdigit (*r) && tm_gclog_parse_size (&x, top + nt, &used) &&
                *x == '(')
              {
                x++;
                if (tm_gclog_parse_size (&x, top + nt, &cap) && *x == ')')
                  {
                    e->has_heap = TRUE;
                    e->heap_before = e->heap_after = used;
                    e->heap_committed = cap;
                    break;
                  }
              }
          }
      }
  }
  if (p->collector == NULL && (g1_pause || remark || cleanup))
    tm_gclog_set_collector (p, "G1");
}

/* "   [Eden: 7168.0K(7168.0K)->0.0B(4096.0K) Survivors: 0.0B->1024.0K
 *     Heap: 7168.0K(32768.0K)->6664.5K(32768.0K)]" after a G1 record. */
static void
g1_detail (TmGclogParser *p, const char *s, const char *end)
{
  TmGclogEvent *e;
  const char *q;
  guint64 eb, ea, ec, sb = 0, sa = 0, sc, hb, ha, hc;

  if (p->last_event < 0)
    return;
  e = &g_array_index (p->events, TmGclogEvent, p->last_event);
  q = s + 7;
  if (!tm_gclog_parse_transition (&q, end, &eb, &ea, &ec))
    goto bad;
  q = tm_gclog_find (q, end, "Survivors: ");
  if (q != NULL)
    {
      q += 11;
      if (!tm_gclog_parse_transition (&q, end, &sb, &sa, &sc))
        goto bad;
    }
  else
    q = s;
  q = tm_gclog_find (q, end, "Heap: ");
  if (q == NULL)
    goto bad;
  q += 6;
  if (!tm_gclog_parse_transition (&q, end, &hb, &ha, &hc))
    goto bad;
  e->has_heap = TRUE;
  e->heap_before = hb;
  e->heap_after = ha;
  e->heap_committed = hc;
  e->n_usage = 0;   /* the detail line replaces what the record said */
  e->usage_head = e->usage_tail = 0;
  {
    guint64 ob, oa, oc = hc > ec + sa ? hc - ec - sa : 0;
    /* Survivors are logged as whole regions, which can exceed what the
     * heap total says is used: the total wins. */
    tm_gclog_fit_to_total (hb, &eb, &sb, &ob);
    tm_gclog_fit_to_total (ha, &ea, &sa, &oa);
    tm_gclog_add_usage (p, e, tm_gclog_space (p, "Eden", TM_SPACE_KIND_YOUNG), eb, ea, ec, FALSE);
    tm_gclog_add_usage (p, e, tm_gclog_space (p, "Survivor", TM_SPACE_KIND_SURVIVOR), sb, sa, sa, FALSE);
    tm_gclog_add_usage (p, e, tm_gclog_space (p, "Old", TM_SPACE_KIND_OLD), ob, oa, oc, FALSE);
  }
  return;
bad:
  tm_gclog_warn (p, "cannot read the G1 generation sizes");
}

/* JDK 6 and 7u1 G1: "   [ 228M->102M(256M)]" after the record. */
static gboolean
g1_heap_line (TmGclogParser *p, const char *s, const char *end)
{
  TmGclogEvent *e;
  const char *q = s + 1;
  guint64 b, a, c;

  while (q < end && *q == ' ')
    q++;
  if (p->last_event < 0 || q == s + 1 || !tm_gclog_parse_transition (&q, end, &b, &a, &c) || q >= end || *q != ']')
    return FALSE;
  e = &g_array_index (p->events, TmGclogEvent, p->last_event);
  if (!e->has_heap)
    {
      e->has_heap = TRUE;
      e->heap_before = b;
      e->heap_after = a;
      e->heap_committed = c;
    }
  return TRUE;
}

static void
finish_record (TmGclogParser *p)
{
  const char *s = p->rec->str, *end = s + p->rec->len;
  gboolean hw = FALSE, hu = FALSE;
  gint64 wm = 0, id = -1;
  guint64 un = 0, t;
  guint64 saved_line = p->line_no, saved_off = p->line_offset;
  const char *q = parse_prefix (s, end, &hw, &wm, &hu, &un, &id);

  if (hw && !p->have_wall_base)
    {
      p->have_wall_base = TRUE;
      p->wall_base_ms = wm;
      p->wall_base_uptime_ns = hu ? un : 0;
      if (wm > 0)
        p->start_unix_ns = (guint64) wm * 1000000 - MIN (p->wall_base_uptime_ns, (guint64) wm * 1000000);
    }
  p->line_no = p->rec_line;   /* for a warning about the time */
  /* a legacy record that encloses others (a long full GC with concurrent
   * records printed into it) ends after them with its earlier start
   * stamp: a new run only after the JVM's banner */
  if (hu)
    {
      t = tm_gclog_uptime (p, un, p->legacy_banner_again);
      p->have_uptime = TRUE;
    }
  else if (hw)
    t = wm > p->wall_base_ms ? (guint64) (wm - p->wall_base_ms) * 1000000 : 0;
  else
    t = p->now_ns;
  p->legacy_banner_again = FALSE;
  p->now_ns = t;
  p->line_no = p->rec_line;
  p->line_offset = p->rec_offset;
  if (q < end && *q == '[')
    parse_record (p, q, end, t, id);
  else
    tm_gclog_warn (p, "not a GC record");
  p->line_no = saved_line;
  p->line_offset = saved_off;
  rec_clear (p);
}

/* -XX:PrintFLSStatistics=1/2 prints CMS free-list statistics into the
 * middle of records: whole lines, and "Before GC:", "After GC:",
 * "size[3] : demand: ..." or "CMS: Large block 0x..." ending record
 * lines.  Returns where the text to keep ends (line: drop it all). */
static const char *
strip_fls (const char *line, const char *end)
{
  static const char *const whole[] = { "Statistics for ", "-----", "Total Free Space:", "Max   Chunk Size:",
                                       "Number of Blocks:", "Av.  Block  Size:", "Tree      Height:", " free=",
                                       "demand:", "size[" };
  static const char *const tails[] = { "Before GC:", "After GC:", "size[", "CMS: Large " };

  for (guint i = 0; i < G_N_ELEMENTS (whole); i++)
    if (tm_gclog_has_prefix (line, end, whole[i]))
      return line;
  for (guint i = 0; i < G_N_ELEMENTS (tails); i++)
    {
      const char *t = tm_gclog_find (line, end, tails[i]);
      if (t != NULL)
        end = t;
    }
  return end;
}

/* -XX:+PrintHeapAtGC: "{Heap before GC invocations=N (full M):" and
 * "Heap after GC invocations=N (full M):" open a block of indented lines
 * (whose "[0x..., 0x...)" would unbalance a record's brackets); "}"
 * closes the second.  Returns TRUE if the line belongs to a block. */
static gboolean
heap_block_line (TmGclogParser *p, const char *line, const char **end)
{
  const char *brace;

  if (p->heap_block)
    {
      if (line < *end && (*line == ' ' || *line == '\t'))
        return TRUE;
      p->heap_block = FALSE;
      if (*end - line == 1 && *line == '}')
        return TRUE;
    }
  if (tm_gclog_has_prefix (line, *end, "Heap after GC invocations=") ||
      tm_gclog_has_prefix (line, *end, "{Heap before GC invocations="))
    {
      p->heap_block = TRUE;
      return TRUE;
    }
  /* "...[GC (CMS Final Remark) [YG occupancy: ...]{Heap before GC ..." */
  brace = memchr (line, '{', *end - line);
  if (brace != NULL && tm_gclog_has_prefix (brace, *end, "{Heap before GC"))
    {
      p->heap_block = TRUE;
      *end = brace;
    }
  return FALSE;
}

/* A whole record inside another one (the young collection that
 * -XX:+CMSScavengeBeforeRemark runs inside the remark): parsed on its own. */
static void
nested_record (TmGclogParser *p, const char *line, const char *end)
{
  GString *outer = p->rec;
  guint64 outer_line = p->rec_line, outer_offset = p->rec_offset;
  int outer_depth = p->rec_depth;

  p->rec = g_string_new (NULL);
  p->rec_depth = 0;
  p->rec_line = p->line_no;
  p->rec_offset = p->line_offset;
  append_clean (p, line, end);
  if (!blank (p->rec))
    finish_record (p);
  g_string_free (p->rec, TRUE);
  p->rec = outer;
  p->rec_depth = outer_depth;
  p->rec_line = outer_line;
  p->rec_offset = outer_offset;
}

static gboolean
whole_record_line (const char *line, const char *end)
{
  gboolean hw = FALSE, hu = FALSE;
  gint64 wm = 0, id = -1;
  guint64 un = 0;
  const char *r = parse_prefix (line, end, &hw, &wm, &hu, &un, &id);

  return (hw || hu) && r < end && tm_gclog_has_prefix (r, end, "[GC") && bracket_depth (r, end - r) == 0;
}

/* A G1 detail line after its record: "[Eden: ...]" or the JDK 6 heap line. */
static void
g1_detail_text (TmGclogParser *p, const char *q, const char *end)
{
  q = parse_prefix (q, end, NULL, NULL, NULL, NULL, NULL);
  if (tm_gclog_has_prefix (q, end, "[Eden: "))
    g1_detail (p, q, end);
  else if (q + 1 < end && *q == '[' && q[1] == ' ')
    g1_heap_line (p, q, end);
}

/* G1's concurrent thread prints into the detail lines the pause thread is
 * writing ("   [[GC concurrent-mark-start]" then " 7399M->4700M(10240M)]",
 * or "84.659: [GC Worker Start Time (ms):[GC concurrent-mark-start]"): the
 * record is taken out and the line joined with the indented lines after
 * it until its brackets balance. */
static void
g1_detail_line (TmGclogParser *p, const char *line, const char *end)
{
  const char *second;

  if (p->detail->len == 0)
    {
      const char *q = memchr (line, '[', end - line);
      second = q ? memchr (q + 1, '[', end - q - 1) : NULL;
      if (second == NULL && bracket_depth (line, end - line) == 0)
        {
          g1_detail_text (p, line, end);   /* the usual case: one whole line */
          return;
        }
    }
  append_clean_to (p, p->detail, &p->detail_depth, line, end);
  if (p->detail_depth > 0 && p->detail->len < 4096)
    return;
  if (p->detail_depth == 0)
    g1_detail_text (p, p->detail->str, p->detail->str + p->detail->len);
  g_string_truncate (p->detail, 0);
  p->detail_depth = 0;
}

void
tm_gclog_legacy_line (TmGclogParser *p, const char *line, const char *end)
{
  const char *q;

  if (heap_block_line (p, line, &end))
    return;
  if (tm_gclog_exit_summary_line (line, end))
    {
      p->exit_summary = TRUE;
      return;
    }
  if (p->rec->len > 0 || p->format == TM_GCLOG_FORMAT_LEGACY)
    {
      end = strip_fls (line, end);
      if (end == line)
        return;
    }

  /* -XX:+PrintTenuringDistribution, inside the young collection's record */
  if (p->rec->len > 0 && (*line == 'D' || *line == '-') && tm_gclog_age_line (p, line, end, &p->pending_ages))
    return;
  if (p->rec->len > 0)
    {
      if (whole_record_line (line, end))
        {
          nested_record (p, line, end);
          return;
        }
      append_clean (p, line, end);
      if (blank (p->rec))
        rec_clear (p);
      else if (p->rec_depth <= 0)
        finish_record (p);
      else if (p->rec->len > MAX_RECORD)
        {
          guint64 l = p->line_no;
          p->line_no = p->rec_line;
          tm_gclog_warn (p, "record does not end within %d bytes, skipped", MAX_RECORD);
          p->line_no = l;
          rec_clear (p);
        }
      return;
    }

  q = line;
  while (q < end && (*q == ' ' || *q == '\t'))
    q++;
  if (p->detail->len > 0)
    {
      if (q > line)
        {
          g1_detail_line (p, line, end);
          return;
        }
      g_string_truncate (p->detail, 0);   /* never closed: dropped */
      p->detail_depth = 0;
    }
  if (q == end)
    return;
  if (q > line && *q == '[')
    {
      g1_detail_line (p, line, end);
      return;   /* G1 phase details and "[Times: ...]" */
    }
  if (q == line)
    {
      if (tm_gclog_has_prefix (line, end, "CommandLine flags: "))
        {
          p->legacy_banner_again = p->events->len > 0;   /* another run appended */
          g_free (p->command_line);
          p->command_line = g_strndup (line + 19, end - line - 19);
          g_strchomp (p->command_line);
          return;
        }
      if ((tm_gclog_has_prefix (line, end, "OpenJDK ") || tm_gclog_has_prefix (line, end, "Java HotSpot")) &&
          p->vm_version == NULL)
        {
          /* "Java HotSpot(TM) 64-Bit Server VM (25.45-b02) for ...": the
           * version follows "VM", not the first parenthesis */
          const char *vm = tm_gclog_find (line, end, "VM (");
          const char *o = vm ? vm + 3 : memchr (line, '(', end - line), *c = o ? memchr (o, ')', end - o) : NULL;
          if (o && c)
            p->vm_version = g_strndup (o + 1, c - o - 1);
          return;
        }
    }

  {
    gboolean hw = FALSE, hu = FALSE;
    gint64 wm = 0, id = -1;
    guint64 un = 0;
    const char *r = parse_prefix (line, end, &hw, &wm, &hu, &un, &id);

    if (r < end && record_start (r, end))
      {
        p->rec_line = p->line_no;
        p->rec_offset = p->line_offset;
        append_clean (p, line, end);
        if (blank (p->rec))
          rec_clear (p);
        else if (p->rec_depth <= 0)
          finish_record (p);
        return;
      }
    /* Stamped JVM messages ("Total time for which application threads
     * were stopped", "Application time") are not GC records; a stamped
     * bracket that opens no known record is a damaged one. */
    if ((hw || hu) && r < end && *r == '[')
      {
        if (tm_gclog_has_prefix (r, end, "[G1Ergonomics"))
          return;   /* G1's reasoning (-XX:+PrintAdaptiveSizePolicy) */
        /* a G1 detail line after the stamp of a record printed into it,
         * "      84.659: [GC Worker Start ..." or "371.856:    [Eden: ..." */
        if (q > line || (r - line >= 2 && r[-1] == ' ' && r[-2] == ' '))
          {
            g1_detail_line (p, line, end);
            return;
          }
        tm_gclog_warn (p, "unrecognised record");
        return;
      }
  }
  /* other lines (exit heap summary, flags, JVM messages): not GC events */
}

void
tm_gclog_legacy_finish (TmGclogParser *p)
{
  if (p->rec->len > 0)
    {
      p->line_no = p->rec_line;
      tm_gclog_warn (p, "record cut short at the end of the file");
      rec_clear (p);
    }
}
