/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * HotSpot GC log importer: reading lines, shared number parsing, and
 * turning the parsed events into the timeline.  The per-format line
 * parsers live in tm-gclog-ujl.c and tm-gclog-legacy.c.
 */
#include "tm-config.h"

#include <string.h>
#include <stdio.h>
#include <errno.h>
#include <sys/stat.h>

#include "tm-gclog.h"
#include "tm-gclog-private.h"
#include "tm-checked.h"
#include "tm-error.h"

#define READ_CHUNK      (1024 * 1024)
#define MAX_LINE        (256 * 1024)   /* longer lines are cut (and reported) */
#define CHECK_EVERY     1024           /* lines between progress/cancel checks */

/* ---- small parsing helpers ------------------------------------------- */

const char *
tm_gclog_find (const char *s, const char *end, const char *needle)
{
  gsize n = strlen (needle);

  if (n == 0 || (gsize) (end - s) < n)
    return NULL;
  for (const char *q = s; q + n <= end; q++)
    {
      q = memchr (q, needle[0], (end - q) - n + 1);
      if (q == NULL)
        return NULL;
      if (memcmp (q, needle, n) == 0)
        return q;
    }
  return NULL;
}

/* "9.618" with scale 6 -> 9618000: exact decimal arithmetic, no doubles. */
gboolean
tm_gclog_parse_decimal (const char **s, const char *end, guint scale_pow10, guint64 *value)
{
  const char *q = *s;
  guint64 ip = 0, fp = 0;
  guint fdigits = 0, idigits = 0;

  while (q < end && g_ascii_isdigit (*q))
    {
      if (ip > G_MAXUINT64 / 100)
        return FALSE;
      ip = ip * 10 + (guint64) (*q - '0');
      q++;
      idigits++;
    }
  if (q < end && (*q == '.' || *q == ','))  /* some locales log "0,123s" */
    {
      const char *f = q + 1;
      while (f < end && g_ascii_isdigit (*f))
        {
          if (fdigits < scale_pow10)
            {
              fp = fp * 10 + (guint64) (*f - '0');
              fdigits++;
            }
          f++;
        }
      if (f > q + 1)
        q = f;
    }
  if (idigits == 0 && fdigits == 0)
    return FALSE;
  for (guint i = 0; i < scale_pow10; i++)
    {
      if (ip > G_MAXUINT64 / 10)
        return FALSE;
      ip *= 10;
    }
  for (guint i = fdigits; i < scale_pow10; i++)
    fp *= 10;
  if (fp > G_MAXUINT64 - ip)
    return FALSE;
  *value = ip + fp;
  *s = q;
  return TRUE;
}

/* "16384K", "7168.0K", "0.0B", "128M", "3.5G" -> bytes */
gboolean
tm_gclog_parse_size (const char **s, const char *end, guint64 *bytes)
{
  const char *q = *s;
  guint64 milli;   /* value * 1000 */
  guint64 unit;

  if (!tm_gclog_parse_decimal (&q, end, 3, &milli))
    return FALSE;
  while (q < end && *q == ' ')   /* "15176 K" in CMS remark lines */
    {
      if (q + 1 < end && strchr ("BKMGT", q[1]) != NULL)
        q++;
      else
        break;
    }
  if (q >= end)
    return FALSE;
  switch (*q)
    {
    case 'B': unit = 1; break;
    case 'K': unit = G_GUINT64_CONSTANT (1) << 10; break;
    case 'M': unit = G_GUINT64_CONSTANT (1) << 20; break;
    case 'G': unit = G_GUINT64_CONSTANT (1) << 30; break;
    case 'T': unit = G_GUINT64_CONSTANT (1) << 40; break;
    default: return FALSE;
    }
  q++;
  if (q < end && *q == 'B')  /* "KB" */
    q++;
  if (milli > G_MAXUINT64 / unit)
    return FALSE;
  *bytes = milli * unit / 1000;
  *s = q;
  return TRUE;
}

/* Skips "(...)" at *s; if it holds a size, stores it. */
static void
skip_paren (const char **s, const char *end, guint64 *size, gboolean *had_size)
{
  const char *q = *s, *close;
  guint64 v;

  *had_size = FALSE;
  if (q >= end || *q != '(')
    return;
  close = memchr (q, ')', end - q);
  if (close == NULL)
    return;
  q++;
  if (tm_gclog_parse_size (&q, close, &v) && q == close)
    {
      *size = v;
      *had_size = TRUE;
    }
  *s = close + 1;
}

/* "A->B(C)", "A(Ca)->B(Cb)", "A(p%)->B(q%)", "A->B", with regions "6->0(9)"
 * as plain numbers (unit-less, returned as counts). */
gboolean
tm_gclog_parse_transition (const char **s, const char *end, guint64 *before, guint64 *after,
                           guint64 *committed)
{
  const char *q = *s;
  guint64 a, bb, c = 0, dummy = 0;
  gboolean had;

  if (!tm_gclog_parse_size (&q, end, &a))
    {
      /* region counts have no unit */
      const char *r = q;
      if (!tm_gclog_parse_decimal (&r, end, 0, &a))
        return FALSE;
      q = r;
    }
  skip_paren (&q, end, &dummy, &had);
  if (!had)
    c = 0;
  else
    c = dummy;
  while (q < end && *q == ' ')
    q++;
  if (!tm_gclog_has_prefix (q, end, "->"))
    return FALSE;
  q += 2;
  while (q < end && *q == ' ')
    q++;
  if (!tm_gclog_parse_size (&q, end, &bb))
    {
      const char *r = q;
      if (!tm_gclog_parse_decimal (&r, end, 0, &bb))
        return FALSE;
      q = r;
    }
  skip_paren (&q, end, &dummy, &had);
  if (had)
    c = dummy;
  *before = a;
  *after = bb;
  *committed = c;
  *s = q;
  return TRUE;
}

/* Splits a logged heap total into young, survivor and old so that they
 * add up to it: old takes the rest; when young and survivor (logged in
 * whole regions) exceed the total, survivor and then young are cut. */
void
tm_gclog_fit_to_total (guint64 total, guint64 *young, guint64 *survivor, guint64 *old)
{
  *young = MIN (*young, total);
  *survivor = MIN (*survivor, total - *young);
  *old = total - *young - *survivor;
}

/* The start of the first "A->B" in [s, end), or NULL. */
const char *
tm_gclog_find_transition (const char *s, const char *end)
{
  const char *arrow = s;

  while ((arrow = tm_gclog_find (arrow, end, "->")) != NULL)
    {
      const char *q = arrow;
      /* step back over "(...)" and the number with its unit */
      if (q > s && q[-1] == ')')
        {
          while (q > s && *(q - 1) != '(')
            q--;
          if (q > s)
            q--;
        }
      while (q > s && (g_ascii_isalnum (q[-1]) || q[-1] == '.'))
        q--;
      if (q < arrow && g_ascii_isdigit (*q))
        return q;
      arrow += 2;
    }
  return NULL;
}

static gint64
days_from_civil (gint64 y, unsigned m, unsigned d)
{
  /* Howard Hinnant's algorithm: days since 1970-01-01 */
  gint64 era;
  unsigned yoe, doy, doe;

  y -= m <= 2;
  era = (y >= 0 ? y : y - 399) / 400;
  yoe = (unsigned) (y - era * 400);
  doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + (gint64) doe - 719468;
}

static gboolean
digits (const char *s, int n, int *v)
{
  int r = 0;
  for (int i = 0; i < n; i++)
    {
      if (!g_ascii_isdigit (s[i]))
        return FALSE;
      r = r * 10 + (s[i] - '0');
    }
  *v = r;
  return TRUE;
}

/* "2022-08-01T17:16:33.170+0000" (also "+02:00" or "Z") -> ms since epoch */
gboolean
tm_gclog_parse_wall_ms (const char *s, const char *end, gint64 *ms)
{
  int y, mo, d, h, mi, sec, frac = 0, off = 0;
  const char *q;

  if (end - s < 19 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':')
    return FALSE;
  if (!digits (s, 4, &y) || !digits (s + 5, 2, &mo) || !digits (s + 8, 2, &d) ||
      !digits (s + 11, 2, &h) || !digits (s + 14, 2, &mi) || !digits (s + 17, 2, &sec))
    return FALSE;
  /* dates from 1970 to 2500 only: their nanoseconds fit in 64 bits */
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1970 || y > 2500)
    return FALSE;
  q = s + 19;
  if (q < end && *q == '.')
    {
      int n = 0;
      q++;
      while (q < end && g_ascii_isdigit (*q))
        {
          if (n < 3)
            frac = frac * 10 + (*q - '0');
          n++;
          q++;
        }
      for (; n < 3; n++)
        frac *= 10;
    }
  if (q < end && (*q == '+' || *q == '-'))
    {
      int oh = 0, om = 0;
      int sign = *q == '-' ? -1 : 1;
      q++;
      if (end - q >= 2 && digits (q, 2, &oh))
        {
          q += 2;
          if (q < end && *q == ':')
            q++;
          if (end - q >= 2)
            digits (q, 2, &om);
        }
      off = sign * (oh * 60 + om);
    }
  *ms = ((days_from_civil (y, (unsigned) mo, (unsigned) d) * 24 + h) * 60 + mi) * 60000LL
        + sec * 1000LL + frac - off * 60000LL;
  return TRUE;
}

/* ---- age tables -------------------------------------------------------- */

static TmGcAges *
ages_table (TmGclogParser *p, guint32 *ages)
{
  if (*ages == 0)
    {
      TmGcAges a = { 0 };
      if (p->ages == NULL)
        p->ages = g_array_new (FALSE, FALSE, sizeof (TmGcAges));
      g_array_append_val (p->ages, a);
      *ages = p->ages->len;
    }
  return &g_array_index (p->ages, TmGcAges, *ages - 1);
}

/* "new threshold 7 (max threshold 15)", "threshold 7 (max 15)" */
static void
parse_thresholds (const char *s, const char *end, TmGcAges *a)
{
  const char *q = tm_gclog_find (s, end, "threshold ");
  guint64 v;

  if (q == NULL)
    return;
  q += 10;
  if (tm_gclog_parse_decimal (&q, end, 0, &v) && v <= TM_GC_MAX_AGE + 1)
    a->threshold = (guint8) v;
  q = tm_gclog_find (q, end, "(max ");
  if (q == NULL)
    return;
  q += 5;
  if (tm_gclog_has_prefix (q, end, "threshold "))
    q += 10;
  if (tm_gclog_parse_decimal (&q, end, 0, &v) && v <= TM_GC_MAX_AGE + 1)
    a->max_threshold = (guint8) v;
}

gboolean
tm_gclog_age_line (TmGclogParser *p, const char *s, const char *end, guint32 *ages)
{
  const char *q;
  guint64 v, bytes;

  if (tm_gclog_has_prefix (s, end, "Desired survivor size "))
    {
      TmGcAges *a = ages_table (p, ages);
      q = s + 22;
      if (tm_gclog_parse_decimal (&q, end, 0, &v))
        a->desired_survivor = v;
      parse_thresholds (q, end, a);
      return TRUE;
    }
  if (tm_gclog_has_prefix (s, end, "Age table with threshold "))
    {
      parse_thresholds (s + 10, end, ages_table (p, ages));
      return TRUE;
    }
  if (tm_gclog_has_prefix (s, end, "- age "))
    {
      /* "- age   1:    1571464 bytes,    1571464 total" */
      q = s + 6;
      while (q < end && *q == ' ')
        q++;
      if (!tm_gclog_parse_decimal (&q, end, 0, &v) || q >= end || *q != ':' || v == 0 || v > TM_GC_MAX_AGE)
        {
          tm_gclog_warn (p, "unreadable age table line");
          return TRUE;
        }
      q++;
      while (q < end && *q == ' ')
        q++;
      if (tm_gclog_parse_decimal (&q, end, 0, &bytes))
        ages_table (p, ages)->bytes[v] = bytes;
      return TRUE;
    }
  return FALSE;
}

/* ---- parser state ---------------------------------------------------- */

void
tm_gclog_warn (TmGclogParser *p, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  p->n_bad_lines++;
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  tm_trace_builder_warning (p->b, p->line_offset, "line %" G_GUINT64_FORMAT ": %s", p->line_no, msg);
}

/* Another JVM's log appended to this one (`java ... >> gc.log`, or two
 * files joined): its uptime starts again.  Its times are put after what
 * came before, so that the runs follow each other instead of
 * interleaving, and the restart is reported.  Only within one file: the
 * parts of a rotated log that overlap are merged in time order. */
guint64
tm_gclog_uptime (TmGclogParser *p, guint64 raw, gboolean jvm_start)
{
  const guint64 slack = G_GUINT64_CONSTANT (1000000000);   /* stamps of threads writing at once */
  /* legacy records end out of order: only a new banner says a new run */
  gboolean back = p->format == TM_GCLOG_FORMAT_LEGACY ? jvm_start && raw < p->run_uptime_max
                                                      : raw + slack < p->run_uptime_max || (jvm_start && raw < p->run_uptime_max);

  if (p->have_run_uptime && back)
    {
      tm_gclog_warn (p, "the uptime goes back from %.3f s to %.3f s: the log of another JVM run follows "
                     "(appended); its times are counted from the end of the one before",
                     p->run_uptime_max / 1e9, raw / 1e9);
      /* after the end of what came before: a legacy stamp is a GC's start */
      guint64 end = tm_add_sat (p->time_offset, p->run_uptime_max);
      for (guint i = 0; i < p->events->len; i++)
        end = MAX (end, g_array_index (p->events, TmGclogEvent, i).end_ns);
      p->time_offset = end;
      p->run_uptime_max = raw;
      /* the GC ids start again at 0 */
      g_hash_table_remove_all (p->open_by_id);
      p->n_open_phases = 0;
    }
  p->run_uptime_max = p->have_run_uptime ? MAX (p->run_uptime_max, raw) : raw;
  p->have_run_uptime = TRUE;
  return tm_add_sat (raw, p->time_offset);
}

TmGclogEvent *
tm_gclog_new_event (TmGclogParser *p, gint64 jvm_id)
{
  TmGclogEvent e = { 0 };

  e.jvm_id = jvm_id;
  e.line = p->line_no;
  e.start_ns = e.end_ns = p->now_ns;
  e.cause = g_intern_static_string ("");
  e.name = g_intern_static_string ("");
  e.kind = TM_GC_KIND_UNKNOWN;
  e.ages = p->pending_ages;   /* legacy: printed inside the record that ends here */
  p->pending_ages = 0;
  g_array_append_val (p->events, e);
  return &g_array_index (p->events, TmGclogEvent, p->events->len - 1);
}

guint64
tm_gclog_space (TmGclogParser *p, const char *name, TmSpaceKind kind)
{
  const char *iname = tm_trace_builder_intern (p->b, name);
  gpointer v = g_hash_table_lookup (p->space_ids, iname);

  if (v != NULL)
    return GPOINTER_TO_SIZE (v);
  p->n_spaces++;
  if (!tm_trace_builder_space (p->b, p->n_spaces, kind, name, NULL))
    g_warn_if_reached ();
  g_hash_table_insert (p->space_ids, (gpointer) iname, GSIZE_TO_POINTER (p->n_spaces));
  g_array_set_size (p->space_kinds, p->n_spaces + 1);
  g_array_index (p->space_kinds, guint, p->n_spaces) = kind;
  return p->n_spaces;
}

void
tm_gclog_add_usage (TmGclogParser *p, TmGclogEvent *e, guint64 space_id, guint64 before, guint64 after,
                    guint64 committed, gboolean regions)
{
  TmGclogUsage u = { 0 };

  for (guint32 i = e->usage_head; i != 0; i = g_array_index (p->usage, TmGclogUsage, i - 1).next)
    {
      TmGclogUsage *x = &g_array_index (p->usage, TmGclogUsage, i - 1);
      if (x->space_id == space_id)
        {
          /* "Archive regions" adds to the old space */
          gboolean sat = FALSE;
          x->before = tm_add_sat_flag (x->before, before, &sat);
          x->after = tm_add_sat_flag (x->after, after, &sat);
          x->committed = tm_add_sat_flag (x->committed, committed, &sat);
          if (sat && !p->saturated)
            {
              p->saturated = TRUE;
              tm_gclog_warn (p, "heap sizes add up past 2^64 bytes: saturated (the log is damaged)");
            }
          return;
        }
    }
  if (e->n_usage >= TM_GCLOG_MAX_USAGE || p->usage->len >= G_MAXUINT32 - 1)
    return;
  u.space_id = space_id;
  u.before = before;
  u.after = after;
  u.committed = committed;
  u.regions = regions;
  g_array_append_val (p->usage, u);
  if (e->usage_tail != 0)
    g_array_index (p->usage, TmGclogUsage, e->usage_tail - 1).next = p->usage->len;
  else
    e->usage_head = p->usage->len;
  e->usage_tail = p->usage->len;
  e->n_usage++;
}

void
tm_gclog_set_collector (TmGclogParser *p, const char *name)
{
  p->collector = tm_trace_builder_intern (p->b, name);
  if (g_str_equal (name, "ZGC") || g_str_equal (name, "Shenandoah"))
    p->cycle_mode = TRUE;
}

/* The words of a message before its first "(...)", number or "A->B". */
static const char *
phase_name_end (const char *s, const char *end)
{
  const char *q = s, *last = s;

  while (q < end)
    {
      const char *w = q;
      if (*w == '(' || g_ascii_isdigit (*w))
        break;
      while (q < end && *q != ' ')
        q++;
      last = q;
      while (q < end && *q == ' ')
        q++;
    }
  return last;
}

void
tm_gclog_add_phase (TmGclogParser *p, TmGcPhaseKind kind, gint64 jvm_id, guint64 end_ns, guint64 dur_ns,
                    const char *name, const char *name_end, const char *detail)
{
  TmGcPhase ph = { 0 };
  const char *ne = phase_name_end (name, name_end);
  /* generational ZGC: which generation's phase, as the log says it */
  g_autofree char *n = p->gen_prefix ? g_strdup_printf ("%s%.*s", p->gen_prefix, (int) (ne - name), name)
                                     : g_strndup (name, ne - name);

  /* a phase that ends at the log's first stamp (wall-clock decorations
   * count from it) keeps its duration */
  ph.end_ns = MAX (end_ns, dur_ns);
  ph.start_ns = ph.end_ns - dur_ns;
  ph.kind = kind;
  ph.jvm_gc_id = jvm_id;
  ph.name = tm_trace_builder_intern (p->b, n);
  ph.detail = tm_trace_builder_intern (p->b, detail ? detail : "");
  g_array_append_val (p->phases, ph);
}

guint
tm_gclog_phase_depth (TmGclogParser *p, gint64 jvm_id, gboolean end_line)
{
  if (!end_line)
    {
      if (p->n_open_phases == 0 || p->open_phase_id != jvm_id)
        p->n_open_phases = 0;
      p->open_phase_id = jvm_id;
      p->n_open_phases++;
      return 0;
    }
  if (p->open_phase_id != jvm_id || p->n_open_phases == 0)
    return 0;
  p->n_open_phases--;
  if (p->phases->len > 0)   /* the phase just added */
    g_array_index (p->phases, TmGcPhase, p->phases->len - 1).depth = p->n_open_phases;
  return p->n_open_phases;
}

/* ---- turning events into the timeline --------------------------------- */

static int
compare_events (gconstpointer a, gconstpointer b)
{
  const TmGclogEvent *x = *(const TmGclogEvent * const *) a;
  const TmGclogEvent *y = *(const TmGclogEvent * const *) b;

  /* completion order, as the timeline's windows expect (a generational
   * ZGC minor collection ends inside the major one that started first) */
  if (x->end_ns != y->end_ns)
    return x->end_ns < y->end_ns ? -1 : 1;
  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  return x < y ? -1 : (x > y ? 1 : 0);   /* stable: log order */
}

static const char *
infer_collector (TmGclogParser *p)
{
  static const struct { const char *space; const char *collector; } map[] = {
    { "DefNew", "Serial" }, { "PSYoungGen", "Parallel" }, { "ParNew", "CMS" },
    { "Eden regions", "G1" }, { "Eden", "G1" }, { "Tenured", "Serial" },
  };

  if (p->collector != NULL)
    return p->collector;
  for (guint i = 0; i < G_N_ELEMENTS (map); i++)
    if (g_hash_table_contains (p->space_ids, tm_trace_builder_intern (p->b, map[i].space)))
      return map[i].collector;
  return "HotSpot";
}

static gboolean
has_kind (TmGclogParser *p, const TmSpaceUsageRecord *u, guint n, TmSpaceKind kind)
{
  for (guint i = 0; i < n; i++)
    if (g_array_index (p->space_kinds, guint, u[i].space_id) == kind)
      return TRUE;
  return FALSE;
}

/* The collector's old generation: as the log names it elsewhere, or by
 * the collector's usual name. */
static guint64
old_space (TmGclogParser *p)
{
  const char *c = infer_collector (p);

  for (guint64 id = 1; id < p->space_kinds->len; id++)
    if (g_array_index (p->space_kinds, guint, id) == TM_SPACE_KIND_OLD)
      return id;
  if (g_str_equal (c, "Serial"))
    return tm_gclog_space (p, "Tenured", TM_SPACE_KIND_OLD);
  if (g_str_equal (c, "Parallel"))
    return tm_gclog_space (p, "ParOldGen", TM_SPACE_KIND_OLD);
  if (g_str_equal (c, "CMS"))
    return tm_gclog_space (p, "CMS", TM_SPACE_KIND_OLD);
  return tm_gclog_space (p, "Old", TM_SPACE_KIND_OLD);
}

static guint64
young_space (TmGclogParser *p)
{
  const char *c = infer_collector (p);

  for (guint64 id = 1; id < p->space_kinds->len; id++)
    if (g_array_index (p->space_kinds, guint, id) == TM_SPACE_KIND_YOUNG)
      return id;
  if (g_str_equal (c, "Serial"))
    return tm_gclog_space (p, "DefNew", TM_SPACE_KIND_YOUNG);
  if (g_str_equal (c, "Parallel"))
    return tm_gclog_space (p, "PSYoungGen", TM_SPACE_KIND_YOUNG);
  if (g_str_equal (c, "CMS"))
    return tm_gclog_space (p, "ParNew", TM_SPACE_KIND_YOUNG);
  return tm_gclog_space (p, "Eden", TM_SPACE_KIND_YOUNG);
}

/* A full GC that logs only its old generation ("[Full GC [Tenured:
 * 5634K->5492K(14592K)] 6560K->5492K(16256K)"): the young generation is
 * what the heap total leaves.  Unified logging rounds the total to 1M,
 * so smaller differences are rounding there.  Returns the entries added. */
static guint
young_rest (TmGclogParser *p, const TmGclogEvent *e, TmSpaceUsageRecord *out, guint n)
{
  const guint64 slack = p->format == TM_GCLOG_FORMAT_UJL ? 1024 * 1024 : 0;
  guint64 sum_b = 0, sum_a = 0, sum_c = 0;

  for (guint i = 0; i < n; i++)
    {
      guint kind = g_array_index (p->space_kinds, guint, out[i].space_id);
      if (kind == TM_SPACE_KIND_YOUNG || kind == TM_SPACE_KIND_SURVIVOR)
        return 0;
      if (kind == TM_SPACE_KIND_NON_HEAP)
        continue;
      sum_b += out[i].used_before;
      sum_a += out[i].used_after;
      sum_c += out[i].committed_after;
    }
  if (e->heap_before <= sum_b + slack && e->heap_after <= sum_a + slack)
    return 0;
  out[n].space_id = young_space (p);
  out[n].used_before = e->heap_before > sum_b ? e->heap_before - sum_b : 0;
  out[n].used_after = e->heap_after > sum_a ? e->heap_after - sum_a : 0;
  out[n].committed_after = e->heap_committed > sum_c ? e->heap_committed - sum_c : 0;
  return 1;
}

/* A young collection that failed and went on to a full one (CMS
 * "concurrent mode failure", promotion failure) prints the young
 * generation as it was before the full collection; the heap total is
 * right, so the young generation takes the difference.  Differences
 * below the summary's rounding (1M in unified logging; legacy logs are
 * exact to the K) are left alone. */
static void
reconcile (TmGclogParser *p, const TmGclogEvent *e, TmSpaceUsageRecord *out, guint n)
{
  const guint64 slack = p->format == TM_GCLOG_FORMAT_UJL ? 1024 * 1024 : 0;
  guint64 sum_b = 0, sum_a = 0;
  gint young = -1;

  for (guint i = 0; i < n; i++)
    {
      guint kind = g_array_index (p->space_kinds, guint, out[i].space_id);
      if (kind == TM_SPACE_KIND_NON_HEAP)
        continue;
      if (kind == TM_SPACE_KIND_YOUNG && young < 0)
        young = (gint) i;
      sum_b = tm_add_sat (sum_b, out[i].used_before);
      sum_a = tm_add_sat (sum_a, out[i].used_after);
    }
  if (young < 0)
    return;
  if (sum_a > e->heap_after + slack || sum_a + slack < e->heap_after)
    {
      guint64 others = sum_a - out[young].used_after;
      out[young].used_after = e->heap_after > others ? e->heap_after - others : 0;
    }
  if (sum_b > e->heap_before + slack || sum_b + slack < e->heap_before)
    {
      guint64 others = sum_b - out[young].used_before;
      out[young].used_before = e->heap_before > others ? e->heap_before - others : 0;
    }
}

/* Cuts the heap spaces but old (index skip) of usage records so that they
 * add up to at most total: survivor spaces first, then young ones. */
static void
trim_to_total (TmGclogParser *p, TmSpaceUsageRecord *out, guint n, gint skip, guint64 total, gboolean after)
{
  static const TmSpaceKind order[] = { TM_SPACE_KIND_SURVIVOR, TM_SPACE_KIND_YOUNG };
  guint64 sum = 0;

  for (guint i = 0; i < n; i++)
    if ((gint) i != skip && g_array_index (p->space_kinds, guint, out[i].space_id) != TM_SPACE_KIND_NON_HEAP)
      sum = tm_add_sat (sum, after ? out[i].used_after : out[i].used_before);
  for (guint k = 0; k < G_N_ELEMENTS (order) && sum > total; k++)
    for (guint i = 0; i < n && sum > total; i++)
      if ((gint) i != skip && g_array_index (p->space_kinds, guint, out[i].space_id) == order[k])
        {
          guint64 *v = after ? &out[i].used_after : &out[i].used_before;
          guint64 cut = MIN (*v, sum - total);
          *v -= cut;
          sum -= cut;
          if (after)
            out[i].committed_after = MAX (out[i].committed_after, *v);
        }
}

/* Region counts to bytes; the old space takes what the logged heap total
 * leaves, so that the sum matches the log (G1 logs regions per type but
 * the heap total in bytes, and old regions are partly filled). */
static guint
event_usage (TmGclogParser *p, const TmGclogEvent *e, TmSpaceUsageRecord *out)
{
  guint n = 0, n_heap = 0;
  gint old = -1;
  gboolean regions = FALSE;
  guint64 other_b = 0, other_a = 0, other_c = 0;
  gboolean sat = FALSE;

  for (guint32 i = e->usage_head; i != 0; i = g_array_index (p->usage, TmGclogUsage, i - 1).next)
    {
      const TmGclogUsage *u = &g_array_index (p->usage, TmGclogUsage, i - 1);
      guint kind = g_array_index (p->space_kinds, guint, u->space_id);

      if (u->regions && (p->region_bytes == 0 || !e->has_heap))
        continue;   /* cannot size regions: the heap total stands alone */
      out[n].space_id = u->space_id;
      out[n].used_before = u->before;
      out[n].used_after = u->after;
      out[n].committed_after = u->committed;
      if (u->regions)
        {
          regions = TRUE;
          out[n].used_before = tm_mul_sat_flag (out[n].used_before, p->region_bytes, &sat);
          out[n].used_after = tm_mul_sat_flag (out[n].used_after, p->region_bytes, &sat);
          out[n].committed_after = out[n].used_after;
          if (kind == TM_SPACE_KIND_OLD)
            old = (gint) n;
        }
      if (kind != TM_SPACE_KIND_NON_HEAP)
        {
          n_heap++;
          if (old != (gint) n)
            {
              other_b = tm_add_sat_flag (other_b, out[n].used_before, &sat);
              other_a = tm_add_sat_flag (other_a, out[n].used_after, &sat);
              other_c = tm_add_sat_flag (other_c, out[n].committed_after, &sat);
            }
        }
      n++;
    }
  if (sat && !p->saturated)
    {
      p->saturated = TRUE;
      p->n_bad_lines++;
      tm_trace_builder_warning (p->b, 0, "the GC that ends at line %" G_GUINT64_FORMAT ": heap sizes (regions "
                                "times the region size, or their sum) past 2^64 bytes: saturated (the log is "
                                "damaged)", e->line);
    }
  if (regions && e->has_heap && !sat)
    {
      /* whole regions can hold more than the heap's used bytes (survivor
       * regions are partly filled): cut survivors, then young, to fit */
      trim_to_total (p, out, n, old, e->heap_before, FALSE);
      trim_to_total (p, out, n, old, e->heap_after, TRUE);
    }
  if (regions && old >= 0)
    {
      out[old].used_before = e->heap_before > other_b ? e->heap_before - other_b : 0;
      out[old].used_after = e->heap_after > other_a ? e->heap_after - other_a : 0;
      out[old].committed_after = e->heap_committed > other_c ? e->heap_committed - other_c : 0;
    }
  if (n_heap > 0 && old < 0 && e->has_heap && n < TM_GCLOG_MAX_USAGE && !has_kind (p, out, n, TM_SPACE_KIND_OLD))
    {
      /* Young collections print the young generation and the heap total;
       * the old generation is the difference. */
      out[n].space_id = old_space (p);
      out[n].used_before = e->heap_before > other_b ? e->heap_before - other_b : 0;
      out[n].used_after = e->heap_after > other_a ? e->heap_after - other_a : 0;
      out[n].committed_after = e->heap_committed > other_c ? e->heap_committed - other_c : 0;
      n++;
    }
  if (n_heap > 0 && e->has_heap && !regions && n < TM_GCLOG_MAX_USAGE)
    n += young_rest (p, e, out, n);
  if (n_heap > 0 && e->has_heap && !regions)
    reconcile (p, e, out, n);
  if (n_heap == 0 && e->has_heap && n < TM_GCLOG_MAX_USAGE)
    {
      out[n].space_id = tm_gclog_space (p, "Heap", TM_SPACE_KIND_OTHER);
      out[n].used_before = e->heap_before;
      out[n].used_after = e->heap_after;
      out[n].committed_after = e->heap_committed;
      n++;
    }
  return n;
}

static gboolean
usage_has_heap (TmGclogParser *p, const TmSpaceUsageRecord *u, guint n)
{
  for (guint i = 0; i < n; i++)
    if (g_array_index (p->space_kinds, guint, u[i].space_id) != TM_SPACE_KIND_NON_HEAP)
      return TRUE;
  return FALSE;
}

/* A pause that logs only the heap total (G1 Remark and Cleanup) in a log
 * whose other GCs give generations: the young spaces keep their size
 * from the GC before (these pauses do not collect them) and the old
 * generation takes the rest, so that the chart does not draw a layer of
 * its own for these pauses.  Returns the new count (n if it cannot). */
static guint
split_total_like (TmGclogParser *p, TmSpaceUsageRecord *usage, guint n, const TmSpaceUsageRecord *last, guint n_last)
{
  TmSpaceUsageRecord out[TM_GCLOG_MAX_USAGE + 1];
  guint m = 0, total = G_MAXUINT;
  gint old = -1;
  guint64 others = 0, others_c = 0;

  for (guint i = 0; i < n; i++)
    {
      guint kind = g_array_index (p->space_kinds, guint, usage[i].space_id);
      if (kind == TM_SPACE_KIND_OTHER && total == G_MAXUINT)
        total = i;
      else if (kind != TM_SPACE_KIND_NON_HEAP)
        return n;
    }
  if (total == G_MAXUINT)
    return n;
  for (guint j = 0; j < n_last && m < TM_GCLOG_MAX_USAGE; j++)
    {
      guint kind = g_array_index (p->space_kinds, guint, last[j].space_id);
      if (kind == TM_SPACE_KIND_NON_HEAP)
        continue;
      if (kind == TM_SPACE_KIND_OTHER)
        return n;
      out[m] = last[j];
      out[m].used_before = last[j].used_after;
      if (kind == TM_SPACE_KIND_OLD && old < 0)
        old = (gint) m;
      else
        {
          others += last[j].used_after;
          others_c += last[j].committed_after;
        }
      m++;
    }
  if (old < 0 || usage[total].used_before < others || usage[total].used_after < others)
    return n;
  out[old].used_before = usage[total].used_before - others;
  out[old].used_after = usage[total].used_after - others;
  if (usage[total].committed_after > others_c)
    out[old].committed_after = usage[total].committed_after - others_c;
  for (guint i = 0; i < n && m < TM_GCLOG_MAX_USAGE; i++)
    if (g_array_index (p->space_kinds, guint, usage[i].space_id) == TM_SPACE_KIND_NON_HEAP)
      out[m++] = usage[i];
  memcpy (usage, out, m * sizeof out[0]);
  return m;
}

static int
compare_phases (gconstpointer a, gconstpointer b)
{
  const TmGcPhase *x = a, *y = b;

  /* start order; a cycle before the phases it holds */
  if (x->start_ns != y->start_ns)
    return x->start_ns < y->start_ns ? -1 : 1;
  if (x->end_ns != y->end_ns)
    return x->end_ns > y->end_ns ? -1 : 1;
  return (int) x->depth - (int) y->depth;
}

/* The phases, with the ZGC and Shenandoah cycles (GCs of the timeline)
 * as cycles of their own, so that the lane shows every collector alike. */
static void
emit_phases (TmGclogParser *p, GPtrArray *events)
{
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < events->len; i++)
    {
      const TmGclogEvent *e = events->pdata[i];
      /* a Shenandoah "Pause Full" of its own GC id is no concurrent cycle */
      if (e->cycle && !(e->kind == TM_GC_KIND_MAJOR && g_str_equal (e->name, "Pause Full")))
        {
          TmGcPhase ph = { e->start_ns, e->end_ns, TM_GC_PHASE_CYCLE, 0, e->jvm_id, e->name, e->cause };
          g_array_append_val (p->phases, ph);
        }
    }
  g_array_sort (p->phases, compare_phases);
  for (guint i = 0; i < p->phases->len; i++)
    if (!tm_trace_builder_gc_phase (p->b, &g_array_index (p->phases, TmGcPhase, i), &error))
      {
        tm_trace_builder_warning (p->b, 0, "%s", error->message);
        return;
      }
}

/* -Xlog:gc+heap=debug "Heap before/after GC" blocks: the occupancy of a
 * GC that logs no total of its own (-Xlog:gc+heap=debug alone), and the
 * kind of one without a pause line: the full-GC counter went up or not. */
static void
apply_heap_blocks (TmGclogEvent *e)
{
  if (e->hb != 3)
    return;
  if (!e->has_heap)
    {
      e->has_heap = TRUE;
      e->heap_before = e->hb_used_before;
      e->heap_after = e->hb_used_after;
      e->heap_committed = e->hb_committed;
    }
  if (e->kind == TM_GC_KIND_UNKNOWN && !e->cycle)
    e->kind = e->hb_full_after > e->hb_full_before ? TM_GC_KIND_MAJOR : TM_GC_KIND_MINOR;
}

static void
emit_events (TmGclogParser *p)
{
  g_autoptr(GPtrArray) order = g_ptr_array_sized_new (p->events->len);
  const char *collector = infer_collector (p);
  TmSpaceUsageRecord last[TM_GCLOG_MAX_USAGE];
  guint n_last = 0;
  guint64 id = 0, end_max = 0, done_max = 0, n_unfinished = 0, n_aborted = 0;
  g_autoptr(GString) evac_failed = g_string_new (NULL);
  g_autoptr(GString) unfinished = g_string_new (NULL);
  g_autoptr(GString) aborted = g_string_new (NULL);

  for (guint i = 0; i < p->events->len; i++)
    {
      const TmGclogEvent *e = &g_array_index (p->events, TmGclogEvent, i);
      if (!e->deleted && !e->aborted && (e->has_duration || (p->cycle_mode && !e->open)))
        done_max = MAX (done_max, e->end_ns);
    }
  for (guint i = 0; i < p->events->len; i++)
    {
      TmGclogEvent *e = &g_array_index (p->events, TmGclogEvent, i);
      if (e->deleted)
        continue;
      /* ZGC aborts the collections that run when the JVM exits: they
       * freed nothing and log no occupancy (their pauses stay among the
       * phases) */
      if (e->aborted)
        {
          if (aborted->len == 0)
            g_string_append_printf (aborted, "GC(%" G_GINT64_FORMAT ") %s at %.3f s", e->jvm_id, e->name,
                                    e->end_ns / 1e9);
          n_aborted++;
          continue;
        }
      /* A pause whose start line ends the log (the JVM was killed, or the
       * rest is in the next rotated part), or a ZGC/Shenandoah cycle that
       * had not paused yet: no GC of known kind and pause; said in META
       * and a note instead. */
      if (p->format == TM_GCLOG_FORMAT_UJL && (!p->cycle_mode || e->cycle) && e->open && !e->has_duration &&
          e->hb != 3 && e->name[0] != '\0' && e->start_ns >= done_max)
        {
          if (unfinished->len == 0)
            g_string_append_printf (unfinished, "GC(%" G_GINT64_FORMAT ") %s at %.3f s", e->jvm_id, e->name,
                                    e->start_ns / 1e9);
          n_unfinished++;
          continue;
        }
      apply_heap_blocks (e);
      /* time stamps that go backwards (a damaged log) must not end a GC
       * before it starts: the order below is the order of the ends */
      e->end_ns = MAX (e->end_ns, e->start_ns);
      /* a log without time stamps: every GC at 0, not ended by its own
       * pause (that would make a span to measure throughput in) */
      if (!p->have_uptime && !p->have_wall_base)
        e->end_ns = e->start_ns;
      g_ptr_array_add (order, e);
    }
  g_ptr_array_sort (order, compare_events);

  for (guint i = 0; i < order->len; i++)
    {
      TmGclogEvent *e = order->pdata[i];
      TmSpaceUsageRecord usage[TM_GCLOG_MAX_USAGE + 1];
      guint n = event_usage (p, e, usage);
      g_autoptr(GError) error = NULL;

      if (!usage_has_heap (p, usage, n))
        {
          /* A pause that logs no occupancy (a Shenandoah cycle cut short,
           * -Xlog:gc ZGC without numbers): keep the last known level rather
           * than drawing a drop to zero. */
          for (guint j = 0; j < n_last && n < TM_GCLOG_MAX_USAGE; j++)
            if (g_array_index (p->space_kinds, guint, last[j].space_id) != TM_SPACE_KIND_NON_HEAP)
              {
                usage[n] = last[j];
                usage[n].used_before = usage[n].used_after;
                n++;
              }
        }
      else
        {
          n = split_total_like (p, usage, n, last, n_last);
          memcpy (last, usage, n * sizeof (usage[0]));
          n_last = n;
        }

      id++;
      if (!tm_trace_builder_gc_start (p->b, id, e->start_ns, e->kind, collector, e->cause, &error) ||
          !tm_trace_builder_gc_end (p->b, id, e->end_ns, e->pause_ns, n, usage, &error))
        {
          tm_trace_builder_warning (p->b, 0, "line %" G_GUINT64_FORMAT ": %s", e->line, error->message);
          return;
        }
      end_max = MAX (end_max, e->end_ns);
      if (e->ages != 0)
        g_array_index (p->ages, TmGcAges, e->ages - 1).gc = (guint32) id;
      if (e->evac_failed ||
          (e->jvm_id >= 0 && p->evac_failed_ids && g_hash_table_contains (p->evac_failed_ids, &e->jvm_id)))
        g_string_append_printf (evac_failed, "%s%" G_GUINT64_FORMAT, evac_failed->len ? "," : "", id);
    }
  if (evac_failed->len > 0)
    tm_trace_builder_meta (p->b, "gclog.evacuation_failures", evac_failed->str);
  if (n_unfinished > 0)
    {
      g_autofree char *note = g_strdup_printf ("the log ends during %s, which is not counted", unfinished->str);
      tm_trace_builder_meta (p->b, "gclog.unfinished", unfinished->str);
      tm_trace_builder_meta (p->b, "note", note);
    }
  if (n_aborted > 0)
    {
      g_autofree char *note = n_aborted == 1
        ? g_strdup_printf ("%s was aborted (the JVM exited during it) and is not counted", aborted->str)
        : g_strdup_printf ("%" G_GUINT64_FORMAT " collections were aborted (the JVM exited during them) and are not "
                           "counted, the first %s", n_aborted, aborted->str);
      tm_trace_builder_meta (p->b, "gclog.aborted", aborted->str);
      tm_trace_builder_meta (p->b, "note", note);
    }
  emit_phases (p, order);
  tm_trace_builder_end (p->b, 0, 0, id, MAX (end_max, p->now_ns));
}

/* ---- the parser ---------------------------------------------------- */

void
tm_gclog_handle_line (TmGclogParser *p, const char *line, const char *end)
{
  if (end > line && end[-1] == '\r')
    end--;
  /* a UTF-8 byte order mark (a log saved by a Windows editor) */
  if (p->line_no == 1 && tm_gclog_has_prefix (line, end, "\xef\xbb\xbf"))
    line += 3;
  if (p->format == TM_GCLOG_FORMAT_UNKNOWN)
    {
      if (tm_gclog_ujl_sniff_line (line, end))
        p->format = TM_GCLOG_FORMAT_UJL;
      else if (tm_gclog_legacy_sniff_line (line, end))
        p->format = TM_GCLOG_FORMAT_LEGACY;
    }
  if (p->format == TM_GCLOG_FORMAT_UJL)
    tm_gclog_ujl_line (p, line, end);
  else
    tm_gclog_legacy_line (p, line, end);   /* also collects the preamble */
}

/* The end of one file: records still open there are cut short. */
void
tm_gclog_end_source (TmGclogParser *p)
{
  p->have_run_uptime = FALSE;
  if (p->format == TM_GCLOG_FORMAT_LEGACY)
    tm_gclog_legacy_finish (p);
  else if (p->format == TM_GCLOG_FORMAT_UJL)
    tm_gclog_ujl_finish (p);
}

void
tm_gclog_parser_init (TmGclogParser *p, const char *path)
{
  memset (p, 0, sizeof *p);
  p->path = path;
  p->b = tm_trace_builder_new (path, "gc-log");
  p->events = g_array_new (FALSE, FALSE, sizeof (TmGclogEvent));
  p->usage = g_array_new (FALSE, FALSE, sizeof (TmGclogUsage));
  p->phases = g_array_new (FALSE, FALSE, sizeof (TmGcPhase));
  p->open_by_id = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
  p->space_ids = g_hash_table_new (g_direct_hash, g_direct_equal);
  p->space_kinds = g_array_new (FALSE, TRUE, sizeof (guint));
  g_array_set_size (p->space_kinds, 1);
  p->rec = g_string_new (NULL);
  p->detail = g_string_new (NULL);
  p->last_event = -1;
}

void
tm_gclog_parser_clear (TmGclogParser *p)
{
  g_clear_pointer (&p->events, g_array_unref);
  g_clear_pointer (&p->usage, g_array_unref);
  g_clear_pointer (&p->phases, g_array_unref);
  g_clear_pointer (&p->open_by_id, g_hash_table_unref);
  g_clear_pointer (&p->space_ids, g_hash_table_unref);
  g_clear_pointer (&p->space_kinds, g_array_unref);
  g_clear_pointer (&p->evac_failed_ids, g_hash_table_unref);
  g_clear_pointer (&p->gc_ids, g_hash_table_unref);
  g_clear_pointer (&p->ages, g_array_unref);
  g_clear_pointer (&p->vm_version, g_free);
  g_clear_pointer (&p->command_line, g_free);
  if (p->rec)
    g_string_free (p->rec, TRUE);
  p->rec = NULL;
  if (p->detail != NULL)
    g_string_free (p->detail, TRUE);
  p->detail = NULL;
  if (p->b)
    tm_trace_builder_free (p->b);
  p->b = NULL;
}

static void
meta_u64 (TmTraceBuilder *b, const char *key, guint64 v)
{
  char num[32];
  g_snprintf (num, sizeof num, "%" G_GUINT64_FORMAT, v);
  tm_trace_builder_meta (b, key, num);
}

static int
compare_ages (gconstpointer a, gconstpointer b)
{
  guint32 x = ((const TmGcAges *) a)->gc, y = ((const TmGcAges *) b)->gc;
  return x < y ? -1 : (x > y ? 1 : 0);
}

/* The age tables of the GCs that made it to the timeline, by GC id. */
static GArray *
numbered_ages (GArray *ages)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (TmGcAges));

  for (guint i = 0; i < ages->len; i++)
    if (g_array_index (ages, TmGcAges, i).gc != 0)
      g_array_append_val (out, g_array_index (ages, TmGcAges, i));
  g_array_sort (out, compare_ages);
  if (out->len == 0)
    g_clear_pointer (&out, g_array_unref);
  return out;
}

/* Header, META and GCs; the parser is cleared either way. */
TmTrace *
tm_gclog_parser_build (TmGclogParser *p, GError **error)
{
  TmTraceHeader h = { 0 };
  TmTrace *t;

  if (p->events->len == 0 && p->format == TM_GCLOG_FORMAT_UNKNOWN && !p->exit_summary)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE, "%s: not a HotSpot GC log", p->path);
      tm_gclog_parser_clear (p);
      return NULL;
    }

  h.version = 1;
  h.start_unix_ns = p->start_unix_ns;
  h.vm_name = "HotSpot";
  h.vm_version = p->vm_version ? p->vm_version : "";
  h.command_line = p->command_line ? p->command_line : "";
  h.pointer_size = 8;
  tm_trace_builder_header (p->b, &h);
  tm_trace_builder_meta (p->b, "gclog.format", p->format == TM_GCLOG_FORMAT_UJL ? "unified" : "legacy");
  tm_trace_builder_meta (p->b, "gclog.collector", infer_collector (p));
  tm_trace_builder_meta (p->b, "gclog.generational", p->generational ? "true" : "false");
  meta_u64 (p->b, "gclog.concurrent_phases", p->n_concurrent_phases);
  meta_u64 (p->b, "gclog.concurrent_ns", p->concurrent_ns);
  meta_u64 (p->b, "gclog.concurrent_cycles", p->n_concurrent_cycles);
  meta_u64 (p->b, "gclog.lines", p->n_lines_total + p->line_no);
  if (p->max_heap > 0)
    meta_u64 (p->b, "gclog.max_heap", p->max_heap);
  if (p->region_bytes > 0)
    meta_u64 (p->b, "gclog.region_bytes", p->region_bytes);
  tm_gclog_ujl_output_note (p);
  if (p->events->len > 0 && !p->have_uptime && !p->have_wall_base)
    {
      /* -Xlog decorations none, or hostname, pid, tid, level, tags only;
       * JDK 8 and older without -XX:+PrintGCTimeStamps: the GCs keep
       * their order and pauses, but not when they ran */
      tm_trace_builder_meta (p->b, "gclog.time_stamps", "none");
      tm_trace_builder_meta (p->b, "note", p->format == TM_GCLOG_FORMAT_UJL
                             ? "the log has no time stamps (its decorations hold no uptime or time): "
                               "GC times, throughput and rates are not known"
                             : "the log has no time stamps (-XX:+PrintGCTimeStamps and -XX:+PrintGCDateStamps "
                               "were off): GC times, throughput and rates are not known");
    }
  if (p->heap_samples > 0)
    {
      meta_u64 (p->b, "gclog.heap_samples", p->heap_samples);
      meta_u64 (p->b, "gclog.sampled_peak_bytes", p->sampled_peak);
    }
  if (p->events->len == 0)
    tm_trace_builder_meta (p->b, "note", p->exit_summary
                           ? "the log holds no GC events, only the JVM's summary at exit"
                           : p->heap_samples > 0
                           ? "the log holds no GC events (Epsilon collects nothing); the peak heap is the most its "
                             "heap samples say was used"
                           : p->n_safepoint_lines > 0 && p->gc_ids == NULL
                           ? "the log holds no GC events, only safepoint lines (-Xlog:safepoint): the JVM's "
                             "stops, of which GCs are some, with no GC id, kind or heap figure"
                           : p->gc_ids != NULL
                           ? "the log holds no GC events: its lines name GCs (GC(n)) but none says a pause or heap "
                             "figure (-Xlog:gc+phases or another tag without the gc tag's pause lines)"
                           : "the log holds no GC events");
  if (p->events->len == 0 && p->n_safepoint_lines > 0)
    meta_u64 (p->b, "gclog.safepoints", p->n_safepoint_lines);
  if (p->events->len == 0 && p->gc_ids != NULL)
    meta_u64 (p->b, "gclog.gc_ids", g_hash_table_size (p->gc_ids));
  emit_events (p);
  t = tm_trace_builder_finish (p->b);
  p->b = NULL;
  /* Epsilon: no GC, but the heap's peak is known from its samples */
  if (t != NULL)
    t->peak_used_bytes = MAX (t->peak_used_bytes, p->sampled_peak);
  if (t != NULL && p->ages != NULL)
    t->gc_ages = numbered_ages (p->ages);
  tm_gclog_parser_clear (p);
  return t;
}
