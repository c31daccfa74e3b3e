/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * heaptrack's figures per call stack, from one pass over the file.
 *
 * heaptrack_print reads the file twice: once to find the time of the peak,
 * then again to snapshot every stack's consumption at that moment.  Here
 * one pass does it: each new maximum of the total starts a new "peak
 * epoch", and an allocation info records its consumption at the latest
 * epoch just before it next changes (its value cannot have changed in
 * between).  At the end every info settles, so its peak is its
 * consumption when the total first reached its maximum, which is
 * heaptrack's definition.
 *
 * Stacks follow AccumulatedTraceData and gui/parser.cpp: operator new
 * frames at the top are skipped, a frame's inlined frames follow it, and
 * a stack stops after main, __libc_start_main or static initialization.
 * Leaks in stacks that match a suppression (heaptrack's built-in ones and
 * those embedded in the file, "S leak:PATTERN") count apart.
 */
#include "tm-config.h"
#include <glib/gi18n-lib.h>

#include <string.h>

#include "tm-heaptrack-profile.h"
#include "tm-checked.h"
#include "tm-heaptrack-private.h"
#include "tm-error.h"

#define READ_CHUNK     (1024 * 1024)
#define MAX_LINE       (1024 * 1024)
#define MAX_DEPTH      1024
#define MAX_WARNINGS   50

typedef TmHeaptrackFrame Frame;

typedef struct {
  guint64 addr;
  guint32 module;
  guint32 first_frame;
  guint32 n_frames;      /* 0: unresolved */
} Ip;

typedef struct {
  guint32 ip;
  guint32 parent;
} Trace;

typedef struct {
  guint64 size;
  guint32 trace;
  guint32 epoch;         /* peak epoch `peak` belongs to */
  guint64 allocations;
  guint64 temporary;
  gint64  leaked;
  gint64  peak;
} Info;

struct _TmHeaptrackProfile {
  TmHeaptrackSummary summary;
  char              *command_line;
  TmCallProfile     *calls;
  TmSizeBucket       sizes[TM_SIZE_HISTOGRAM_BUCKETS];
  GPtrArray         *warnings;
};

typedef struct {
  const char *path;
  TmHeaptrackProfile *out;

  GPtrArray *strings;       /* char*, string id - 1 */
  GArray    *ips;           /* Ip */
  GArray    *frames;        /* Frame */
  GArray    *traces;        /* Trace */
  GArray    *infos;         /* Info */
  GPtrArray *suppressions;  /* char* patterns */
  guint32    op_new[4];
  guint      n_op_new;
  GArray    *op_new_ips;    /* guint32 ip ids whose function is operator new */
  guint32    stop[3];       /* main, __libc_start_main, static initialization */
  guint      n_stop;

  guint32    file_version;
  gboolean   have_version;
  guint64    now_ms;
  guint64    from_ms, to_ms;  /* heaptrack's time filter (FilterParameters) */
  gboolean   in_range;        /* the current time stamp is in it */
  gboolean   past_range;      /* a time stamp reached to_ms: stop reading */
  guint64    last_alloc;    /* heaptrack's lastAllocationPtr */
  gint64     leaked;
  gint64     peak;
  guint32    peak_epoch;
  guint64    page_size;
  guint64    peak_rss_pages;

  guint64    line_no;
  guint64    offset;        /* uncompressed offset of the current line */
  guint64    problems;
} Parser;

static void G_GNUC_PRINTF (2, 3)
complain (Parser *p, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  if (++p->problems > MAX_WARNINGS)
    {
      if (p->problems == MAX_WARNINGS + 1)
        g_ptr_array_add (p->out->warnings, g_strdup_printf ("%s: more problems, not listed", p->path));
      return;
    }
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (p->out->warnings,
                   g_strdup_printf ("%s: line %" G_GUINT64_FORMAT " (byte %" G_GUINT64_FORMAT "): %s", p->path,
                                    p->line_no, p->offset, msg));
}


static const char *
str (Parser *p, guint32 id)
{
  if (id == 0 || id > p->strings->len)
    return "";
  return p->strings->pdata[id - 1];
}

/* ---- costs ------------------------------------------------------------ */

/* The info's consumption at the latest peak is its value before this change. */
static inline void
settle (Parser *p, Info *info)
{
  if (info->epoch != p->peak_epoch)
    {
      info->peak = info->leaked;
      info->epoch = p->peak_epoch;
    }
}

static inline void
on_alloc (Parser *p, guint64 index)
{
  Info *info = &g_array_index (p->infos, Info, index);

  settle (p, info);
  /* sizes from the file: saturate, never wrap (signed overflow is UB) */
  info->leaked = tm_add_s64_sat (info->leaked, tm_s64_of_u64 (info->size));
  info->allocations++;
  p->leaked = tm_add_s64_sat (p->leaked, tm_s64_of_u64 (info->size));
  p->out->summary.allocations++;
  p->out->summary.allocated_bytes = tm_add_sat (p->out->summary.allocated_bytes, info->size);
  if (p->leaked > p->peak)
    {
      p->peak = p->leaked;
      p->out->summary.peak_time_ms = p->now_ms;
      p->peak_epoch++;
    }
  p->last_alloc = index;
}

static inline void
on_free (Parser *p, guint64 index)
{
  Info *info = &g_array_index (p->infos, Info, index);

  settle (p, info);
  info->leaked = tm_add_s64_sat (info->leaked, -tm_s64_of_u64 (info->size));
  p->leaked = tm_add_s64_sat (p->leaked, -tm_s64_of_u64 (info->size));
  /* heaptrack's rule, quirks included: a free right after an allocation
   * of the same info (lastAllocationPtr starts at and returns to 0) */
  if (p->last_alloc == index)
    {
      info->temporary++;
      p->out->summary.temporary++;
    }
  p->last_alloc = 0;
}

/* "A": heaptrack attached to a running process and counts from here. */
static void
restart (Parser *p)
{
  for (guint i = 0; i < p->infos->len; i++)
    {
      Info *info = &g_array_index (p->infos, Info, i);
      info->allocations = info->temporary = 0;
      info->leaked = info->peak = 0;
      info->epoch = 0;
    }
  p->peak_epoch = 0;
  p->leaked = p->peak = 0;
  p->out->summary.allocations = p->out->summary.temporary = p->out->summary.allocated_bytes = 0;
  p->out->summary.peak_time_ms = 0;
  p->out->summary.attached = TRUE;
}

/* ---- definitions ------------------------------------------------------- */

static void
on_string (Parser *p, const char *s, const char *end)
{
  static const char *const op_new[] = { "operator new(unsigned long)", "operator new[](unsigned long)",
                                        "operator new(unsigned int)", "operator new[](unsigned int)" };
  static const char *const stop[] = { "main", "__libc_start_main", "__static_initialization_and_destruction_0" };
  const char *problem;
  char *value = tm_heaptrack_parse_string (p->file_version, s, end, &problem);
  guint32 id;

  if (problem != NULL)
    complain (p, "%s", problem);
  g_ptr_array_add (p->strings, value);
  id = p->strings->len;
  for (guint i = 0; i < G_N_ELEMENTS (op_new); i++)
    if (strcmp (value, op_new[i]) == 0 && p->n_op_new < G_N_ELEMENTS (p->op_new))
      p->op_new[p->n_op_new++] = id;
  for (guint i = 0; i < G_N_ELEMENTS (stop); i++)
    if (strcmp (value, stop[i]) == 0 && p->n_stop < G_N_ELEMENTS (p->stop))
      p->stop[p->n_stop++] = id;
}

static gboolean
is_op_new_string (Parser *p, guint32 id)
{
  for (guint i = 0; i < p->n_op_new; i++)
    if (p->op_new[i] == id)
      return TRUE;
  return FALSE;
}

static gboolean
is_stop_string (Parser *p, guint32 id)
{
  for (guint i = 0; i < p->n_stop; i++)
    if (p->stop[i] == id)
      return TRUE;
  return FALSE;
}

static void
on_ip (Parser *p, const char *s, const char *end)
{
  Ip ip = { 0 };
  gboolean malformed;

  ip.first_frame = p->frames->len;
  ip.n_frames = tm_heaptrack_parse_ip (s, end, &ip.addr, &ip.module, p->frames, &malformed);
  if (malformed)
    complain (p, "malformed instruction pointer");
  g_array_append_val (p->ips, ip);
  if (ip.n_frames > 0 && is_op_new_string (p, g_array_index (p->frames, Frame, ip.first_frame).func))
    {
      guint32 id = p->ips->len;
      g_array_append_val (p->op_new_ips, id);
    }
}

static gboolean
is_op_new_ip (Parser *p, guint32 ip)
{
  for (guint i = 0; i < p->op_new_ips->len; i++)
    if (g_array_index (p->op_new_ips, guint32, i) == ip)
      return TRUE;
  return FALSE;
}

static void
on_trace (Parser *p, const char *s, const char *end)
{
  Trace t;
  const char *problem = tm_heaptrack_parse_trace (s, end, p->ips->len, p->traces->len, &t.ip, &t.parent);

  if (problem != NULL)
    complain (p, "%s", problem);
  /* operator new at the top of a stack: the stack is its caller's */
  while (t.ip != 0 && is_op_new_ip (p, t.ip))
    t = t.parent ? g_array_index (p->traces, Trace, t.parent - 1) : (Trace) { 0, 0 };
  g_array_append_val (p->traces, t);
}

static void
on_info (Parser *p, const char *s, const char *end)
{
  Info info = { 0 };
  const char *problem = tm_heaptrack_parse_info (s, end, p->traces->len, &info.size, &info.trace);

  if (problem != NULL)
    complain (p, "%s", problem);
  info.epoch = p->peak_epoch;
  g_array_append_val (p->infos, info);
}

static void
on_suppression (Parser *p, const char *s, const char *end)
{
  g_autofree char *line = NULL;
  const char *q = s;
  guint64 len;

  /* format 3 writes a length before the text, as for strings */
  if (p->file_version >= 3 && tm_heaptrack_read_hex (&q, end, &len) && q < end && *q == ' ' && len == (guint64) (end - q - 1))
    s = q + 1;
  line = g_strstrip (g_strndup (s, end - s));

  if (g_str_has_prefix (line, "leak:") && line[5] != '\0')
    g_ptr_array_add (p->suppressions, g_strdup (line + 5));
  else if (line[0] != '\0' && line[0] != '#')
    complain (p, "suppression without \"leak:\"");
}

static gboolean
handle_line (Parser *p, const char *line, const char *end, GError **error)
{
  const char *s = line + 1;
  guint64 a;

  if (line == end)
    return TRUE;
  if (end - line >= 2 && line[1] != ' ')
    {
      complain (p, "unknown record");
      return TRUE;
    }
  if (tm_heaptrack_raw_record (line, end, p->path, p->line_no, p->offset, error))
    return FALSE;
  if (!p->have_version && line[0] != 'v' && line[0] != '#')
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE, _("%s: not a heaptrack data file (no version line)"), p->path);
      return FALSE;
    }
  switch (line[0])
    {
    case '+':
      if (!tm_heaptrack_read_hex (&s, end, &a) || a >= p->infos->len)
        complain (p, "allocation of an undefined allocation info");
      else
        on_alloc (p, a);
      break;
    case '-':
      if (!tm_heaptrack_read_hex (&s, end, &a) || a >= p->infos->len)
        complain (p, "free of an undefined allocation info");
      else
        on_free (p, a);
      break;
    case 'c':
      if (!tm_heaptrack_read_hex (&s, end, &a))
        complain (p, "malformed time stamp");
      else
        {
          p->now_ms = a;
          p->in_range = a >= p->from_ms && a <= p->to_ms;
          p->past_range = a >= p->to_ms;
        }
      break;
    case 'a':
      on_info (p, s, end);
      break;
    case 't':
      on_trace (p, s, end);
      break;
    case 'i':
      on_ip (p, s, end);
      break;
    case 's':
      on_string (p, s, end);
      break;
    case 'R':
      if (p->in_range && tm_heaptrack_read_hex (&s, end, &a))
        p->peak_rss_pages = MAX (p->peak_rss_pages, a);
      break;
    case 'I':
      if (tm_heaptrack_read_hex (&s, end, &a))
        {
          p->page_size = a;
          if (tm_heaptrack_read_hex (&s, end, &a))
            p->out->summary.total_memory_bytes = a * p->page_size;
        }
      break;
    case 'X':
      if (p->out->command_line == NULL)
        p->out->command_line = g_strndup (MIN (s + 1, end), end - MIN (s + 1, end));
      break;
    case 'A':
      restart (p);
      break;
    case 'S':
      on_suppression (p, s, end);
      break;
    case 'v':
      {
        guint64 version, format;
        tm_heaptrack_parse_version (s, end, &version, &format);
        if (format < 1 || format > 3)
          {
            g_set_error (error, TM_ERROR, TM_ERROR_UNSUPPORTED,
                         "%s: heaptrack file format %" G_GUINT64_FORMAT " (written by heaptrack %" G_GINT64_MODIFIER
                         "x) is not supported; formats 1 to 3 (heaptrack 1.1 and later) are", p->path, format, version);
            return FALSE;
          }
        p->file_version = (guint32) format;
        p->have_version = TRUE;
      }
      break;
    case '#':
      break;
    default:
      complain (p, "unknown record '%c'", line[0]);
      break;
    }
  return TRUE;
}

/* ---- suppressions ---------------------------------------------------- */

/* LSan's template match, as heaptrack uses it: "^" anchors at the start,
 * "$" at the end, "*" matches anything; a pattern without them matches
 * anywhere in the string. */
static gboolean
template_match (const char *templ, const char *s)
{
  gboolean start = FALSE, asterisk = FALSE;

  if (s[0] == '\0')
    return FALSE;
  if (templ[0] == '^')
    {
      start = TRUE;
      templ++;
    }
  while (templ[0] != '\0')
    {
      gsize seg;
      g_autofree char *needle = NULL;
      const char *found;

      if (templ[0] == '*')
        {
          templ++;
          start = FALSE;
          asterisk = TRUE;
          continue;
        }
      if (templ[0] == '$')
        return s[0] == '\0' || asterisk;
      if (s[0] == '\0')
        return FALSE;
      seg = strcspn (templ, "*$");
      needle = g_strndup (templ, seg);
      found = strstr (s, needle);
      if (found == NULL || (start && found != s))
        return FALSE;
      s = found + seg;
      templ += seg;
      start = asterisk = FALSE;
    }
  return TRUE;
}

static gboolean
suppression_matches (const char *pattern, const char *s)
{
  return strcmp (pattern, s) == 0 || template_match (pattern, s);
}

/* Which traces lie below a frame that matches a suppression. */
static guint8 *
suppressed_traces (Parser *p)
{
  g_autofree guint8 *by_string = g_new0 (guint8, p->strings->len + 1);
  g_autofree guint8 *by_ip = g_new0 (guint8, p->ips->len + 1);
  guint8 *by_trace = g_new0 (guint8, p->traces->len + 1);
  gboolean any = FALSE;

  for (guint i = 0; i < p->strings->len; i++)
    for (guint k = 0; k < p->suppressions->len && !by_string[i + 1]; k++)
      if (suppression_matches (p->suppressions->pdata[k], p->strings->pdata[i]))
        by_string[i + 1] = any = TRUE;
  if (!any)
    return by_trace;
  for (guint i = 0; i < p->ips->len; i++)
    {
      const Ip *ip = &g_array_index (p->ips, Ip, i);
      gboolean hit = ip->module <= p->strings->len && by_string[ip->module];
      for (guint k = 0; k < ip->n_frames && !hit; k++)
        {
          const Frame *f = &g_array_index (p->frames, Frame, ip->first_frame + k);
          hit = (f->func <= p->strings->len && by_string[f->func]) ||
                (f->has_file && f->file <= p->strings->len && by_string[f->file]);
        }
      by_ip[i + 1] = hit;
    }
  /* parents come before their children */
  for (guint i = 0; i < p->traces->len; i++)
    {
      const Trace *t = &g_array_index (p->traces, Trace, i);
      by_trace[i + 1] = by_trace[t->parent] || by_ip[t->ip];
    }
  return by_trace;
}

/* ---- the profile ------------------------------------------------------ */

static guint32
frame_symbol (Parser *p, TmCallProfile *calls, const Ip *ip, const Frame *f)
{
  if (f == NULL || f->func == 0)
    {
      char addr[32];
      g_snprintf (addr, sizeof addr, "0x%" G_GINT64_MODIFIER "x", ip->addr);
      return tm_call_profile_symbol (calls, addr, str (p, ip->module), FALSE);
    }
  return tm_call_profile_symbol (calls, str (p, f->func), str (p, ip->module), TRUE);
}

static void
build_calls (Parser *p)
{
  TmHeaptrackProfile *out = p->out;
  g_autofree TmCost *per_trace = g_new0 (TmCost, p->traces->len + 1);
  g_autofree guint8 *nonzero = g_new0 (guint8, p->traces->len + 1);
  g_autofree guint8 *suppressed = suppressed_traces (p);
  g_autofree TmCallFrame *frames = g_new (TmCallFrame, MAX_DEPTH);
  TmCallProfile *calls = tm_call_profile_new ();

  for (guint i = 0; i < p->infos->len; i++)
    {
      Info *info = &g_array_index (p->infos, Info, i);
      TmCost *c = &per_trace[info->trace];
      guint b = 0;

      settle (p, info);
      c->v[TM_COST_ALLOCATIONS] = tm_add_s64_sat (c->v[TM_COST_ALLOCATIONS], tm_s64_of_u64 (info->allocations));
      c->v[TM_COST_TEMPORARY] = tm_add_s64_sat (c->v[TM_COST_TEMPORARY], tm_s64_of_u64 (info->temporary));
      c->v[TM_COST_PEAK] = tm_add_s64_sat (c->v[TM_COST_PEAK], info->peak);
      c->v[TM_COST_LEAKED] = tm_add_s64_sat (c->v[TM_COST_LEAKED], info->leaked);
      c->v[TM_COST_ALLOCATED] = tm_add_s64_sat (c->v[TM_COST_ALLOCATED],
                                                tm_s64_of_u64 (tm_mul_sat (info->size, info->allocations)));
      nonzero[info->trace] |= info->allocations > 0 || info->leaked != 0;

      while (b + 1 < TM_SIZE_HISTOGRAM_BUCKETS && info->size > out->sizes[b].max_size)
        b++;
      out->sizes[b].allocations += info->allocations;
      out->sizes[b].bytes += info->size * info->allocations;
    }

  for (guint t = 0; t <= p->traces->len; t++)
    {
      guint depth = 0;

      if (!nonzero[t])
        continue;
      if (suppressed[t] && per_trace[t].v[TM_COST_LEAKED] != 0)
        {
          out->summary.suppressed_bytes += (guint64) per_trace[t].v[TM_COST_LEAKED];
          per_trace[t].v[TM_COST_LEAKED] = 0;
        }
      for (guint32 at = t, steps = 0; at != 0 && depth < MAX_DEPTH && steps < MAX_DEPTH; steps++)
        {
          const Trace *node = &g_array_index (p->traces, Trace, at - 1);
          const Ip *ip;

          if (node->ip == 0 || node->ip > p->ips->len)
            {
              at = node->parent;
              continue;
            }
          ip = &g_array_index (p->ips, Ip, node->ip - 1);
          for (guint k = 0; k < MAX (ip->n_frames, 1) && depth < MAX_DEPTH; k++)
            {
              const Frame *f = ip->n_frames ? &g_array_index (p->frames, Frame, ip->first_frame + k) : NULL;
              frames[depth].symbol = frame_symbol (p, calls, ip, f);
              frames[depth].file = f && f->has_file ? str (p, f->file) : NULL;
              frames[depth].line = f && f->has_file ? (gint32) f->line : -1;
              depth++;
            }
          if (ip->n_frames > 0 && is_stop_string (p, g_array_index (p->frames, Frame, ip->first_frame).func))
            break;
          at = node->parent;
        }
      tm_call_profile_add_stack (calls, frames, depth, &per_trace[t]);
    }
  out->calls = calls;
  out->summary.leaked_bytes = (guint64) MAX (p->leaked - (gint64) out->summary.suppressed_bytes, 0);
}

static void
parser_clear (Parser *p)
{
  g_clear_pointer (&p->strings, g_ptr_array_unref);
  g_clear_pointer (&p->ips, g_array_unref);
  g_clear_pointer (&p->frames, g_array_unref);
  g_clear_pointer (&p->traces, g_array_unref);
  g_clear_pointer (&p->infos, g_array_unref);
  g_clear_pointer (&p->op_new_ips, g_array_unref);
  g_clear_pointer (&p->suppressions, g_ptr_array_unref);
}

TmHeaptrackProfile *
tm_heaptrack_profile_read (const char     *path,
                           TmProgressFunc  progress,
                           gpointer        progress_data,
                           GCancellable   *cancellable,
                           GError        **error)
{
  return tm_heaptrack_profile_read_range (path, 0, G_MAXUINT64, progress, progress_data, cancellable, error);
}

TmHeaptrackProfile *
tm_heaptrack_profile_read_range (const char     *path,
                                 guint64         from_ms,
                                 guint64         to_ms,
                                 TmProgressFunc  progress,
                                 gpointer        progress_data,
                                 GCancellable   *cancellable,
                                 GError        **error)
{
  static const char *const builtin[] = { "__nss_module_allocate", "__gconv_read_conf", "__new_exitfn",
                                         "tzset_internal", "dl_open_worker", "g_main_context_new", "g_thread_self" };
  Parser p = { 0 };
  TmHeaptrackSource *src;
  g_autofree char *buf = NULL;
  gsize have = 0;
  gboolean failed = FALSE, damaged = FALSE;
  guint64 size, base = 0;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  src = tm_heaptrack_source_open (path, error);
  if (src == NULL)
    return NULL;
  size = tm_heaptrack_source_size (src);

  p.path = path;
  p.out = g_new0 (TmHeaptrackProfile, 1);
  p.out->warnings = g_ptr_array_new_with_free_func (g_free);
  p.strings = g_ptr_array_new_with_free_func (g_free);
  p.ips = g_array_new (FALSE, FALSE, sizeof (Ip));
  p.frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  p.traces = g_array_new (FALSE, FALSE, sizeof (Trace));
  p.infos = g_array_new (FALSE, FALSE, sizeof (Info));
  p.op_new_ips = g_array_new (FALSE, FALSE, sizeof (guint32));
  p.suppressions = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < G_N_ELEMENTS (builtin); i++)
    g_ptr_array_add (p.suppressions, g_strdup (builtin[i]));
  p.page_size = 4096;
  p.from_ms = from_ms;
  p.to_ms = to_ms;
  p.in_range = from_ms == 0;   /* until the first time stamp, as heaptrack */
  for (guint b = 0; b < TM_SIZE_HISTOGRAM_BUCKETS; b++)
    p.out->sizes[b].max_size = b + 1 < TM_SIZE_HISTOGRAM_BUCKETS ? G_GUINT64_CONSTANT (8) << b : G_MAXUINT64;

  buf = g_malloc (READ_CHUNK + MAX_LINE);
  for (;;)
    {
      g_autoptr(GError) read_error = NULL;
      gssize n = tm_heaptrack_source_read (src, (guint8 *) buf + have, READ_CHUNK + MAX_LINE - have, &read_error);
      const char *line, *end, *nl;

      if (n < 0)
        {
          complain (&p, "%s", read_error->message);
          damaged = TRUE;
          n = 0;
        }
      if (n == 0 && have > 0)
        {
          if (!damaged)
            {
              p.line_no++;
              p.offset = base;
              complain (&p, "last line has no end: the file was cut short");
              damaged = TRUE;
            }
          have = 0;
        }
      if (n == 0)
        break;
      have += (gsize) n;
      line = buf;
      end = buf + have;
      while ((nl = memchr (line, '\n', (gsize) (end - line))) != NULL)
        {
          p.line_no++;
          p.offset = base + (guint64) (line - buf);
          /* the two records that make up nearly all lines, inline */
          if ((line[0] == '+' || line[0] == '-') && !p.in_range && p.have_version)
            ;   /* outside the time filter, as heaptrack skips them */
          else if (line[0] == '+' && p.have_version && nl - line >= 3 && line[1] == ' ')
            {
              const char *s = line + 1;
              guint64 a;
              if (tm_heaptrack_read_hex (&s, nl, &a) && a < p.infos->len)
                on_alloc (&p, a);
              else
                complain (&p, "allocation of an undefined allocation info");
            }
          else if (line[0] == '-' && p.have_version && nl - line >= 3 && line[1] == ' ')
            {
              const char *s = line + 1;
              guint64 a;
              if (tm_heaptrack_read_hex (&s, nl, &a) && a < p.infos->len)
                on_free (&p, a);
              else
                complain (&p, "free of an undefined allocation info");
            }
          else if (!handle_line (&p, line, nl, error))
            {
              failed = TRUE;
              break;
            }
          line = nl + 1;
          if (p.past_range)
            break;
        }
      if (failed)
        break;
      if (p.past_range)
        break;
      if (line == buf && have >= READ_CHUNK + MAX_LINE)
        {
          complain (&p, "line longer than %d bytes: not a heaptrack file past here", MAX_LINE);
          damaged = TRUE;
          break;
        }
      base += (guint64) (line - buf);
      memmove (buf, line, (gsize) (end - line));
      have = (gsize) (end - line);
      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        {
          failed = TRUE;
          break;
        }
      if (progress != NULL && size > 0)
        progress (MIN (1.0, (double) tm_heaptrack_source_offset (src) / (double) size), progress_data);
    }
  if (!failed && !damaged && tm_heaptrack_source_cut_short (src))
    {
      complain (&p, "compressed data ends in the middle of a frame: the file was cut short");
      damaged = TRUE;
    }
  tm_heaptrack_source_close (src);
  if (!failed && !p.have_version)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE, _("%s: not a heaptrack data file (no version line)"), path);
      failed = TRUE;
    }
  if (failed)
    {
      parser_clear (&p);
      tm_heaptrack_profile_free (p.out);
      return NULL;
    }

  build_calls (&p);
  /* heaptrack: the last time stamp + 1; of a range, its length */
  p.out->summary.total_time_ms = from_ms == 0 && to_ms == G_MAXUINT64 ? p.now_ms + 1
                                 : MIN (p.now_ms, to_ms) - MIN (from_ms, MIN (p.now_ms, to_ms));
  p.out->summary.peak_bytes = (guint64) MAX (p.peak, 0);
  p.out->summary.peak_rss_bytes = p.peak_rss_pages * p.page_size;
  p.out->summary.complete = !damaged;
  p.out->summary.command_line = p.out->command_line ? p.out->command_line : "";
  g_ptr_array_add (p.out->warnings, NULL);
  if (progress != NULL)
    progress (1.0, progress_data);
  parser_clear (&p);
  return p.out;
}

void
tm_heaptrack_profile_free (TmHeaptrackProfile *profile)
{
  if (profile == NULL)
    return;
  g_free (profile->command_line);
  tm_call_profile_unref (profile->calls);
  g_ptr_array_unref (profile->warnings);
  g_free (profile);
}

const TmHeaptrackSummary *
tm_heaptrack_profile_summary (const TmHeaptrackProfile *profile)
{
  return &profile->summary;
}

TmCallProfile *
tm_heaptrack_profile_calls (const TmHeaptrackProfile *profile)
{
  return profile->calls;
}

const TmSizeBucket *
tm_heaptrack_profile_sizes (const TmHeaptrackProfile *profile)
{
  return profile->sizes;
}

const char *const *
tm_heaptrack_profile_warnings (const TmHeaptrackProfile *profile)
{
  return (const char *const *) profile->warnings->pdata;
}
