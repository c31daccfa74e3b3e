/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * heaptrack data files (written by heaptrack_interpret, file format
 * versions 1-3).  One record per line, numbers in hex:
 *
 *   v VERSION FILEVERSION   X COMMAND LINE     I PAGESIZE PAGES
 *   s [LEN] STRING          strings, 1-based
 *   i IP MODULE [FUNC FILE LINE]...            instruction pointers, 1-based
 *                           (the first frame, then the frames inlined into it)
 *   t IP PARENT             trace (call stack) nodes, 1-based
 *   a SIZE TRACE            allocation infos, 0-based
 *   + INFO                  an allocation of that size at that trace
 *   - INFO                  a free of an allocation with that info
 *   c MILLISECONDS          time stamp    R PAGES    RSS
 *   A                       attached to a running process    # comment
 *
 * A free names the allocation info, not the block; blocks of the same
 * info are interchangeable, so the newest live one dies (which keeps
 * temporary allocations' lifetimes exact).  Totals follow heaptrack's own
 * definitions (AccumulatedTraceData::read), so they match heaptrack_print.
 *
 * This file turns records into the model; tm-heaptrack-reader.c reads,
 * on its own thread, and tm-heaptrack-source.c decompresses.
 */
#include "tm-config.h"
#include <glib/gi18n-lib.h>

#include <string.h>

#include "tm-heaptrack.h"
#include "tm-heaptrack-private.h"
#include "tm-trace-builder.h"
#include "tm-error.h"
#include "tm-checked.h"

#define MAX_DEPTH       128
#define POINT_MS        10      /* first spacing of timeline points */
#define POINT_BUDGET    2048    /* points before the spacing doubles */
#define MAX_COMPLAINTS  50
#define NO_OBJECT       TM_HEAPTRACK_NO_OBJECT
#define DEATH_BATCH     4096
/* Time stamps past this many ms (about 584 years) do not fit in ns. */
#define MAX_TIME_MS     (G_MAXUINT64 / 1000000)
/* Bytes the reader thread keeps per live block (its stacks), charged per batch */
#define LIVE_BYTES      8
#define CHARGE_EVERY    4096
/* Allocations of the current interval kept as their info, until the next
 * point says which died: up to this many, then rows for the rest of it */
#define SCRATCH_MAX     (1u << 20)
/* what a scratch entry may cost: itself and, at a memory-limit stop, its row */
#define SCRATCH_BYTES   (sizeof (guint32) + 5 * sizeof (guint32))
/* Progress per byte: text without a line that adds to the model */
#define MAX_TEXT_WITHOUT_PROGRESS (G_GUINT64_CONSTANT (64) << 20)

typedef TmHeaptrackFrame HtFrame;

typedef struct {
  guint64 addr;
  guint32 module;
  guint32 first_frame;        /* index into frames */
  guint32 n_frames;
  guint32 frame_id;           /* first TmFrame id, 0 = not defined yet */
} HtIp;

typedef struct {
  guint32 ip;
  guint32 parent;
} HtTrace;

typedef struct {
  TmAllocKind kind;           /* size; type and site ids (site 0 = not defined yet) */
  guint32 trace;
} HtInfo;

typedef struct {
  const char     *path;
  TmTraceBuilder *b;

  guint32    file_version;
  guint32    heaptrack_version;
  GPtrArray *strings;         /* char*, index = string id - 1 */
  GArray    *ips;             /* HtIp */
  GArray    *frames;          /* HtFrame */
  GArray    *traces;          /* HtTrace */
  GArray    *infos;           /* HtInfo */
  GArray    *trace_site;      /* guint32 site id per trace index */
  guint32    op_new[4];       /* string ids of "operator new..." */
  guint      n_op_new;
  guint32    main_str;

  guint64    n_objects;
  guint64    n_deaths;
  /* the current interval's allocations, object scratch_first + k being
   * the info scratch[k] (TM_TRACE_BUILDER_DIED once freed); rows_mode:
   * the interval outgrew it (or has an unusual block), its allocations
   * are rows at once */
  guint32   *scratch;
  guint32    n_scratch;
  guint32    cap_scratch;
  guint64    scratch_first;
  gboolean   rows_mode;
  guint64    death_buf[DEATH_BATCH];   /* deaths not yet handed to the builder */
  guint      n_death_buf;
  gboolean   deaths_failed;
  guint64    n_frames_defined;
  guint64    n_sites;
  guint64    n_types;
  guint32    size_class_type[65];

  /* heaptrack's totals */
  guint64    allocations;
  guint64    temporary;
  guint64    temporary_all;   /* not reset by attaching: the series per point */
  GArray    *point_temporary; /* guint64 temporary_all at each point's start */
  GArray    *point_rss;       /* guint64 RSS pages at each point: the sample of its time stamp */
  gint64     leaked;          /* current consumption */
  gint64     peak;
  guint64    peak_time_ms;
  guint64    last_alloc_info; /* heaptrack's lastAllocationPtr */
  guint64    page_size;
  guint64    peak_rss_pages;
  guint64    rss_pages;

  /* timeline points */
  guint64    now_ms;
  guint64    last_point_ms;
  guint64    point_ms;
  guint64    n_points;
  gint64     interval_peak;
  gboolean   dirty;           /* events since the last point */

  guint64    line_no;
  guint64    line_offset;     /* uncompressed */
  guint64    progress_offset; /* of the last line that added to the model */
  gboolean   over_limit;      /* the model reached the memory budget */
  gboolean   overflowed;      /* byte totals saturated (reported once) */
  guint64    complaints;
  char      *command_line;
  gboolean   have_version;
} HtParser;

static void G_GNUC_PRINTF (2, 3)
complain (HtParser *p, const char *format, ...)
{
  va_list args;
  g_autofree char *msg = NULL;

  if (++p->complaints > MAX_COMPLAINTS)
    {
      if (p->complaints == MAX_COMPLAINTS + 1)
        tm_trace_builder_warning (p->b, p->line_offset, "line %" G_GUINT64_FORMAT ": more problems, not listed",
                                  p->line_no);
      return;
    }
  va_start (args, format);
  msg = g_strdup_vprintf (format, args);
  va_end (args);
  tm_trace_builder_warning (p->b, p->line_offset, "line %" G_GUINT64_FORMAT ": %s", p->line_no, msg);
}

#define read_hex tm_heaptrack_read_hex

static const char *
str (HtParser *p, guint32 id)
{
  if (id == 0 || id > p->strings->len)
    return "";
  return p->strings->pdata[id - 1];
}

/* ---- timeline points ----------------------------------------------- */

/* Frees are deaths "now"; they are handed over in batches, always before
 * the next point starts (which is what "now" refers to). */
static void
flush_deaths (HtParser *p)
{
  g_autoptr(GError) error = NULL;

  if (p->n_death_buf == 0)
    return;
  if (tm_trace_builder_deaths (p->b, 0, p->death_buf, p->n_death_buf, &error))
    p->n_deaths += p->n_death_buf;
  else
    {
      p->deaths_failed = TRUE;
      complain (p, "%s", error->message);
    }
  p->n_death_buf = 0;
}

/* The scratch as rows and deaths, one by one (what every allocation was
 * before the scratch): for an interval that outgrows it, an unusual
 * block, or what is left at a memory-limit stop.  The interval goes on
 * in rows. */
static void
scratch_to_rows (HtParser *p)
{
  guint32 n = p->n_scratch;

  p->n_scratch = 0;
  p->rows_mode = TRUE;
  for (guint32 k = 0; k < n && !p->over_limit; k++)
    {
      const HtInfo *info = &g_array_index (p->infos, HtInfo, p->scratch[k] & ~TM_TRACE_BUILDER_DIED);
      g_autoptr(GError) error = NULL;

      if (!tm_trace_builder_alloc (p->b, p->scratch_first + k + 1, info->kind.type_id, info->kind.site_id, 0,
                                   info->kind.size, 0, 0, &error))
        {
          if (g_error_matches (error, TM_ERROR, TM_ERROR_MEMORY_LIMIT))
            p->over_limit = TRUE;
          else
            complain (p, "%s", error->message);
        }
    }
  for (guint32 k = 0; k < n; k++)
    if (p->scratch[k] & TM_TRACE_BUILDER_DIED)
      {
        p->death_buf[p->n_death_buf++] = p->scratch_first + k + 1;
        if (p->n_death_buf == DEATH_BATCH)
          flush_deaths (p);
      }
  flush_deaths (p);
}

/* The interval ends at end_ns: its blocks freed by now go straight into
 * its short-lived counters, the others become rows. */
static void
flush_scratch (HtParser *p, guint64 end_ns)
{
  g_autoptr(GError) error = NULL;
  gint64 dead;

  if (p->n_scratch == 0)
    return;
  dead = tm_trace_builder_alloc_interval (p->b, p->scratch_first + 1, p->scratch, p->n_scratch,
                                          &g_array_index (p->infos, HtInfo, 0).kind, sizeof (HtInfo), p->infos->len,
                                          end_ns, &error);
  if (dead >= 0)
    {
      p->n_deaths += (guint64) dead;
      p->n_scratch = 0;
    }
  else if (error != NULL)
    p->over_limit = TRUE;   /* kept for the stop (tm_trace_builder_close_past_limit) */
  else
    scratch_to_rows (p);
}

/* heaptrack's current consumption, which can go negative (frees of blocks
 * allocated before attaching) but must not wrap */
static void
add_leaked (HtParser *p, guint64 size, gboolean add)
{
  gint64 v = (gint64) MIN (size, (guint64) G_MAXINT64);

  if (!tm_add_s64_checked (&p->leaked, p->leaked, add ? v : -v) && !p->overflowed)
    {
      p->overflowed = TRUE;
      complain (p, "allocated bytes overflow 64 bits: heaptrack's byte totals are saturated from here");
    }
}

/* Lines that define, allocate, free or stamp time count as progress. */
static inline void
progressed (HtParser *p)
{
  p->progress_offset = p->line_offset;
}

static void
emit_point (HtParser *p, guint64 t_ms)
{
  TmSpaceUsageRecord u;
  g_autoptr(GError) error = NULL;
  guint64 id = p->n_points + 1;

  flush_deaths (p);
  flush_scratch (p, t_ms * 1000000);
  p->rows_mode = FALSE;
  if (p->over_limit)
    return;
  u.space_id = 1;
  u.used_before = (guint64) MAX (p->interval_peak, 0);
  u.used_after = (guint64) MAX (p->leaked, 0);
  u.committed_after = tm_mul_sat (p->rss_pages, p->page_size);
  if (!tm_trace_builder_gc_start (p->b, id, t_ms * 1000000, TM_GC_KIND_UNKNOWN, "heaptrack", "time sample", &error) ||
      !tm_trace_builder_gc_end (p->b, id, t_ms * 1000000, 0, 1, &u, &error))
    {
      if (g_error_matches (error, TM_ERROR, TM_ERROR_MEMORY_LIMIT))
        p->over_limit = TRUE;
      else
        complain (p, "%s", error->message);
      return;
    }
  g_array_append_val (p->point_temporary, p->temporary_all);
  g_array_append_val (p->point_rss, p->rss_pages);
  p->n_points++;
  p->last_point_ms = t_ms;
  p->interval_peak = p->leaked;
  p->dirty = FALSE;
  if (p->n_points % POINT_BUDGET == 0)
    p->point_ms *= 2;   /* long recordings: fewer, wider points */
}

static void
time_stamp (HtParser *p, guint64 t_ms)
{
  if (t_ms > MAX_TIME_MS)
    {
      complain (p, "time stamp %" G_GUINT64_FORMAT " ms is later than 2^64 ns; ignored", t_ms);
      return;
    }
  if (t_ms < p->now_ms)
    {
      complain (p, "time goes back from %" G_GUINT64_FORMAT " ms to %" G_GUINT64_FORMAT " ms", p->now_ms, t_ms);
      return;
    }
  p->now_ms = t_ms;
  tm_trace_builder_tick (p->b, t_ms * 1000000);
  if (p->dirty && t_ms - p->last_point_ms >= p->point_ms)
    emit_point (p, t_ms);
}

/* ---- sites --------------------------------------------------------- */

static guint32
ip_frames (HtParser *p, guint32 ip_index)
{
  HtIp *ip = &g_array_index (p->ips, HtIp, ip_index - 1);

  if (ip->frame_id != 0)
    return ip->frame_id;
  ip->frame_id = (guint32) p->n_frames_defined + 1;
  if (ip->n_frames == 0)
    {
      /* no symbol: the address and its module, as heaptrack_print shows it */
      char name[32];
      g_snprintf (name, sizeof name, "0x%" G_GINT64_MODIFIER "x", ip->addr);
      tm_trace_builder_frame (p->b, ++p->n_frames_defined, name, str (p, ip->module), -1, NULL);
      return ip->frame_id;
    }
  for (guint32 i = 0; i < ip->n_frames; i++)
    {
      const HtFrame *f = &g_array_index (p->frames, HtFrame, ip->first_frame + i);
      const char *func = str (p, f->func);
      char name[32];

      if (func[0] == '\0')
        {
          g_snprintf (name, sizeof name, "0x%" G_GINT64_MODIFIER "x", ip->addr);
          func = name;
        }
      tm_trace_builder_frame (p->b, ++p->n_frames_defined, func, f->has_file ? str (p, f->file) : str (p, ip->module),
                              f->has_file ? (gint64) f->line : -1, NULL);
    }
  return ip->frame_id;
}

static gboolean
is_op_new (HtParser *p, guint32 ip_index)
{
  const HtIp *ip = &g_array_index (p->ips, HtIp, ip_index - 1);
  guint32 func;

  if (ip->n_frames == 0)
    return FALSE;
  func = g_array_index (p->frames, HtFrame, ip->first_frame).func;
  for (guint i = 0; i < p->n_op_new; i++)
    if (p->op_new[i] == func)
      return TRUE;
  return FALSE;
}

/* The call stack of a trace, innermost first, without the operator new
 * frames at its top and without what lies beyond main. */
static guint32
site_for_trace (HtParser *p, guint32 trace)
{
  guint64 frame_ids[MAX_DEPTH];
  guint32 depth = 0;
  gboolean skipping = TRUE;
  guint32 *slot;

  if (trace == 0 || trace > p->traces->len)
    return 0;
  slot = &g_array_index (p->trace_site, guint32, trace - 1);
  if (*slot != 0)
    return *slot;

  for (guint32 t = trace, steps = 0; t != 0 && depth < MAX_DEPTH && steps < 4 * MAX_DEPTH; steps++)
    {
      const HtTrace *node = &g_array_index (p->traces, HtTrace, t - 1);
      gboolean stop = FALSE;

      if (node->ip >= 1 && node->ip <= p->ips->len)
        {
          const HtIp *ip;
          guint32 first;

          if (skipping && is_op_new (p, node->ip))
            {
              t = node->parent;
              continue;
            }
          skipping = FALSE;
          first = ip_frames (p, node->ip);
          ip = &g_array_index (p->ips, HtIp, node->ip - 1);
          for (guint32 i = 0; i < MAX (ip->n_frames, 1) && depth < MAX_DEPTH; i++)
            {
              frame_ids[depth++] = first + i;
              if (ip->n_frames > 0 && p->main_str != 0 &&
                  g_array_index (p->frames, HtFrame, ip->first_frame + i).func == p->main_str)
                stop = TRUE;
            }
        }
      if (stop)
        break;
      t = node->parent;
    }
  *slot = (guint32) ++p->n_sites;
  tm_trace_builder_site (p->b, p->n_sites, depth, frame_ids, NULL);
  return *slot;
}

/* Objects are typed by size class: "native <= 64 B" holds 33..64 bytes. */
static guint32
type_for_size (HtParser *p, guint64 size)
{
  guint cls = size <= 16 ? 4 : (guint) g_bit_storage (size - 1);
  char name[48];
  guint64 upper;

  cls = MIN (cls, 64);
  if (p->size_class_type[cls] != 0)
    return p->size_class_type[cls];
  upper = cls >= 64 ? G_MAXUINT64 : G_GUINT64_CONSTANT (1) << cls;
  if (upper >= (G_GUINT64_CONSTANT (1) << 30))
    g_snprintf (name, sizeof name, "native <= %" G_GUINT64_FORMAT " GiB", upper >> 30);
  else if (upper >= (1u << 20))
    g_snprintf (name, sizeof name, "native <= %" G_GUINT64_FORMAT " MiB", upper >> 20);
  else if (upper >= 1024)
    g_snprintf (name, sizeof name, "native <= %" G_GUINT64_FORMAT " KiB", upper >> 10);
  else
    g_snprintf (name, sizeof name, "native <= %" G_GUINT64_FORMAT " B", upper);
  p->size_class_type[cls] = (guint32) ++p->n_types;
  tm_trace_builder_type (p->b, p->n_types, name, 0, NULL);
  return p->size_class_type[cls];
}

/* ---- records --------------------------------------------------------- */

/* A bigger scratch, charged with what its entries may cost. */
static void
grow_scratch (HtParser *p)
{
  guint32 cap = MAX (p->cap_scratch * 2, 4096);

  if (!tm_trace_builder_charge (p->b, (guint64) (cap - p->cap_scratch) * SCRATCH_BYTES, NULL))
    {
      p->over_limit = TRUE;
      return;
    }
  p->scratch = g_renew (guint32, p->scratch, cap);
  p->cap_scratch = cap;
}

/* An allocation the reader thread numbered: object `obj` of info `index`
 * (index checked there against the infos defined so far). */
static void
on_alloc (HtParser *p, guint64 index, guint64 obj)
{
  HtInfo *info = &g_array_index (p->infos, HtInfo, index);

  if (info->kind.site_id == 0)
    {
      info->kind.site_id = site_for_trace (p, info->trace);
      info->kind.type_id = type_for_size (p, info->kind.size);
    }
  if ((obj % CHARGE_EVERY) == 0 && !tm_trace_builder_charge (p->b, CHARGE_EVERY * LIVE_BYTES, NULL))
    {
      p->over_limit = TRUE;
      return;
    }
  if (G_UNLIKELY (!p->rows_mode && (p->n_scratch == p->cap_scratch || info->kind.size >= G_MAXUINT32
                                     || index >= TM_TRACE_BUILDER_DIED)))
    {
      /* blocks of 4 GiB and more are rows at once (and their problems get
       * their line number) */
      if (info->kind.size >= G_MAXUINT32 || index >= TM_TRACE_BUILDER_DIED || p->cap_scratch >= SCRATCH_MAX)
        scratch_to_rows (p);
      else
        grow_scratch (p);
      if (p->over_limit)
        return;
    }
  if (!p->rows_mode)
    {
      if (p->n_scratch == 0)
        p->scratch_first = obj;
      p->scratch[p->n_scratch++] = (guint32) index;
    }
  else
    {
      g_autoptr(GError) error = NULL;
      if (!tm_trace_builder_alloc (p->b, obj + 1, info->kind.type_id, info->kind.site_id, 0, info->kind.size, 0, 0,
                                   &error))
        {
          if (g_error_matches (error, TM_ERROR, TM_ERROR_MEMORY_LIMIT))
            {
              p->over_limit = TRUE;
              return;
            }
          complain (p, "%s", error->message);
        }
    }
  p->n_objects = obj + 1;
  progressed (p);

  p->allocations++;
  add_leaked (p, info->kind.size, TRUE);
  if (p->leaked > p->peak)
    {
      p->peak = p->leaked;
      p->peak_time_ms = p->now_ms;
    }
  p->interval_peak = MAX (p->interval_peak, p->leaked);
  p->last_alloc_info = index;
  p->dirty = TRUE;
}

/* A free of info `index`; the reader thread picked the newest live object
 * of that info (NO_OBJECT if there was none). */
static void
on_free (HtParser *p, guint64 index, guint32 obj)
{
  const HtInfo *info = &g_array_index (p->infos, HtInfo, index);

  /* heaptrack's rule: a free right after an allocation of the same info */
  if (p->last_alloc_info == index)
    {
      p->temporary++;
      p->temporary_all++;
    }
  p->last_alloc_info = 0;
  add_leaked (p, info->kind.size, FALSE);
  p->dirty = TRUE;
  progressed (p);

  if (obj == NO_OBJECT)
    {
      complain (p, "free without a live allocation of allocation info %" G_GUINT64_FORMAT, index);
      return;
    }
  if (obj >= p->scratch_first && obj - p->scratch_first < p->n_scratch)
    {
      p->scratch[obj - p->scratch_first] |= TM_TRACE_BUILDER_DIED;
      return;
    }
  p->death_buf[p->n_death_buf++] = (guint64) obj + 1;
  if (p->n_death_buf == DEATH_BATCH)
    flush_deaths (p);
}

/* The usual run of "+"/"-" ops, with the parser's counters in locals:
 * allocations into the scratch, frees of blocks that need no word.
 * Returns the index of the first op that needs on_alloc(), on_free()
 * or handle_line() (they do the same, and say what is unusual). */
static gsize
plain_ops (HtParser *p, const TmHeaptrackChunk *c, gsize i)
{
  const guint64 *ops = c->ops;
  gsize n = c->n_ops;
  const HtInfo *infos = (const HtInfo *) (gconstpointer) p->infos->data;
  guint32 *scratch = p->scratch;
  guint32 n_scratch = p->n_scratch, cap = p->rows_mode ? 0 : p->cap_scratch;
  guint64 first = p->scratch_first, n_objects = p->n_objects, last = p->last_alloc_info;
  guint64 allocations = p->allocations, temporary = 0, peak_time = p->peak_time_ms, lines = 0;
  gint64 leaked = p->leaked, peak = p->peak, interval_peak = p->interval_peak;

  for (; i < n; i++)
    {
      guint64 op = ops[i], index = op >> 2;
      gint64 next;

      if ((op & 3) == 0)
        {
          const HtInfo *info = &infos[index];
          guint64 size = info->kind.size;

          if (G_UNLIKELY (info->kind.site_id == 0 || n_objects % CHARGE_EVERY == 0 || n_scratch == cap
                          || size >= G_MAXUINT32 || index >= TM_TRACE_BUILDER_DIED
                          || __builtin_add_overflow (leaked, (gint64) size, &next)))
            break;
          if (n_scratch == 0)
            first = n_objects;
          scratch[n_scratch++] = (guint32) index;
          n_objects++;
          allocations++;
          leaked = next;
          if (leaked > peak)
            {
              peak = leaked;
              peak_time = p->now_ms;
            }
          interval_peak = MAX (interval_peak, leaked);
          last = index;
        }
      else if ((op & 3) == 1)
        {
          guint32 obj = (guint32) ops[i + 1];
          gint64 v = (gint64) MIN (infos[index].kind.size, (guint64) G_MAXINT64);
          gboolean in_scratch = obj >= first && obj - first < n_scratch;

          if (G_UNLIKELY (obj == NO_OBJECT || __builtin_add_overflow (leaked, -v, &next)
                          || (!in_scratch && p->n_death_buf + 1 >= DEATH_BATCH)))
            break;
          temporary += last == index;
          last = 0;
          leaked = next;
          if (in_scratch)
            scratch[obj - first] |= TM_TRACE_BUILDER_DIED;
          else
            p->death_buf[p->n_death_buf++] = (guint64) obj + 1;
          i++;
        }
      else
        break;
      lines++;
    }
  if (lines > 0)
    {
      p->n_scratch = n_scratch;
      p->scratch_first = first;
      p->n_objects = n_objects;
      p->last_alloc_info = last;
      p->allocations = allocations;
      p->temporary += temporary;
      p->temporary_all += temporary;
      p->peak_time_ms = peak_time;
      p->leaked = leaked;
      p->peak = peak;
      p->interval_peak = interval_peak;
      p->line_no += lines;
      p->line_offset = p->progress_offset = c->offset;
      p->dirty = TRUE;
    }
  return i;
}

static void
on_ip (HtParser *p, const char *s, const char *end)
{
  HtIp ip = { 0 };
  gboolean malformed;

  ip.first_frame = p->frames->len;
  ip.n_frames = tm_heaptrack_parse_ip (s, end, &ip.addr, &ip.module, p->frames, &malformed);
  if (malformed)
    complain (p, "malformed instruction pointer");
  if (!tm_trace_builder_charge (p->b, sizeof ip + (guint64) ip.n_frames * sizeof (HtFrame), NULL))
    p->over_limit = TRUE;
  g_array_append_val (p->ips, ip);
}

static void
on_string (HtParser *p, const char *s, const char *end)
{
  const char *problem;
  char *value = tm_heaptrack_parse_string (p->file_version, s, end, &problem);
  guint32 id;

  if (problem != NULL)
    complain (p, "%s", problem);
  if (!tm_trace_builder_charge (p->b, strlen (value) + 1 + 2 * sizeof (gpointer), NULL))
    p->over_limit = TRUE;
  g_ptr_array_add (p->strings, value);
  id = p->strings->len;
  if (p->n_op_new < G_N_ELEMENTS (p->op_new) && g_str_has_prefix (value, "operator new"))
    p->op_new[p->n_op_new++] = id;
  else if (p->main_str == 0 && strcmp (value, "main") == 0)
    p->main_str = id;
}

static void
handle_line (HtParser *p, const char *line, const char *end)
{
  const char *s = line + 1;
  guint64 a, b;

  if (line == end)
    return;
  if (end - line >= 2 && line[1] != ' ')
    {
      complain (p, "unknown record");
      return;
    }
  if (strchr ("atiscRXvIA", line[0]) != NULL)
    progressed (p);
  switch (line[0])
    {
    case '+':
      /* valid ones never come here: the reader thread numbers them */
      if (!read_hex (&s, end, &a))
        complain (p, "malformed allocation");
      else if (a >= p->infos->len)
        complain (p, "allocation of undefined allocation info %" G_GUINT64_FORMAT, a);
      else
        complain (p, "more than %u allocations; the rest are not modelled", NO_OBJECT - 1);
      break;
    case '-':
      if (!read_hex (&s, end, &a))
        complain (p, "malformed free");
      else
        complain (p, "free of undefined allocation info %" G_GUINT64_FORMAT, a);
      break;
    case 'c':
      if (read_hex (&s, end, &a))
        time_stamp (p, a);
      else
        complain (p, "malformed time stamp");
      break;
    case 'a':
      {
        HtInfo info = { 0 };
        const char *problem = tm_heaptrack_parse_info (s, end, p->traces->len, &info.kind.size, &info.trace);
        if (problem != NULL)
          complain (p, "%s", problem);
        /* its entry here and its stack of live blocks in the reader */
        if (!tm_trace_builder_charge (p->b, sizeof info + 2 * sizeof (gpointer), NULL))
          p->over_limit = TRUE;
        g_array_append_val (p->infos, info);
      }
      break;
    case 't':
      {
        HtTrace t;
        const char *problem = tm_heaptrack_parse_trace (s, end, p->ips->len, p->traces->len, &t.ip, &t.parent);
        if (problem != NULL)
          complain (p, "%s", problem);
        if (!tm_trace_builder_charge (p->b, sizeof t + sizeof (guint32), NULL))
          p->over_limit = TRUE;
        g_array_append_val (p->traces, t);
        g_array_append_val (p->trace_site, (guint32) { 0 });
      }
      break;
    case 'i':
      on_ip (p, s, end);
      break;
    case 's':
      on_string (p, s, end);
      break;
    case 'R':
      if (read_hex (&s, end, &a))
        {
          p->rss_pages = a;
          p->peak_rss_pages = MAX (p->peak_rss_pages, a);
          /* heaptrack samples RSS right after a time stamp: the sample of
           * a point emitted at that stamp */
          if (p->n_points > 0 && p->last_point_ms == p->now_ms && p->point_rss->len == p->n_points)
            g_array_index (p->point_rss, guint64, p->n_points - 1) = a;
        }
      break;
    case 'X':
      if (p->command_line == NULL)
        p->command_line = g_strndup (s + 1 <= end ? s + 1 : end, end - MIN (s + 1, end));
      else
        complain (p, "second debuggee line");
      break;
    case 'A':
      /* attached to a running process: heaptrack starts counting here */
      p->allocations = p->temporary = 0;
      p->leaked = p->peak = 0;
      break;
    case 'v':
      if (read_hex (&s, end, &a))
        {
          p->heaptrack_version = (guint32) MIN (a, G_MAXUINT32);
          if (read_hex (&s, end, &b))
            p->file_version = (guint32) MIN (b, G_MAXUINT32);
          else if (a == 0x010200)
            p->file_version = 1;
          p->have_version = TRUE;
        }
      break;
    case 'I':
      if (read_hex (&s, end, &a))
        p->page_size = a;
      break;
    case '#':
    case 'S':   /* embedded suppressions: for heaptrack's leak report only */
      break;
    default:
      complain (p, "unknown record '%c'", line[0]);
      break;
    }
}

/* ---- entry points ---------------------------------------------------- */

static gboolean
looks_like_heaptrack (const char *s, gsize n)
{
  const char *end = s + n;
  guint64 a, b;

  if (n < 4 || s[0] != 'v' || s[1] != ' ')
    return FALSE;
  s += 1;
  if (!read_hex (&s, end, &a))
    return FALSE;
  read_hex (&s, end, &b);   /* heaptrack 1.0 wrote no file version */
  return s < end && (*s == '\n' || *s == '\r');
}

/* File format versions 1-3 (heaptrack 1.1 and later) name allocation
 * infos in "+"/"-" lines; version 0 (heaptrack 1.0) named pointers. */
static gboolean
supported_version (const char *s, gsize n, const char *path, GError **error)
{
  const char *end = s + n;
  guint64 heaptrack = 0, format = 0;

  s += 1;
  read_hex (&s, end, &heaptrack);
  if (!read_hex (&s, end, &format))
    format = heaptrack == 0x010200 ? 1 : 0;
  if (format >= 1 && format <= 3)
    return TRUE;
  g_set_error (error, TM_ERROR, TM_ERROR_UNSUPPORTED,
               "%s: heaptrack file format %" G_GUINT64_FORMAT " (written by heaptrack %" G_GINT64_MODIFIER "x) is not"
               " supported; formats 1 to 3 (heaptrack 1.1 and later) are", path, format, heaptrack);
  return FALSE;
}

/* heaptrack --raw output: its executable and module maps come before the
 * first allocation, among the first lines */
static gboolean
raw_data (const char *text, gsize len, const char *path, GError **error)
{
  const char *line = text, *end = text + len, *nl;
  guint64 line_no = 1;

  for (; line_no <= 64 && (nl = memchr (line, '\n', (gsize) (end - line))) != NULL; line = nl + 1, line_no++)
    if (tm_heaptrack_raw_record (line, nl, path, line_no, (guint64) (line - text), error))
      return TRUE;
  return FALSE;
}

gboolean
tm_heaptrack_sniff (const guint8 *head, gsize len)
{
  guint8 out[256];
  gsize n;

  g_return_val_if_fail (head != NULL || len == 0, FALSE);
  n = tm_heaptrack_inflate_head (head, len, out, sizeof out);
  return looks_like_heaptrack ((const char *) out, n);
}

static void
parser_clear (HtParser *p)
{
  g_clear_pointer (&p->strings, g_ptr_array_unref);
  g_clear_pointer (&p->ips, g_array_unref);
  g_clear_pointer (&p->frames, g_array_unref);
  g_clear_pointer (&p->traces, g_array_unref);
  g_clear_pointer (&p->infos, g_array_unref);
  g_clear_pointer (&p->trace_site, g_array_unref);
  g_clear_pointer (&p->point_temporary, g_array_unref);
  g_clear_pointer (&p->point_rss, g_array_unref);
  g_clear_pointer (&p->command_line, g_free);
  g_clear_pointer (&p->scratch, g_free);
}

static void
set_meta_u64 (TmTraceBuilder *b, const char *key, guint64 v)
{
  char num[32];
  g_snprintf (num, sizeof num, "%" G_GUINT64_FORMAT, v);
  tm_trace_builder_meta (b, key, num);
}

TmTrace *
tm_heaptrack_import_full (const char          *path,
                          const TmLoadOptions *options,
                          TmProgressFunc       progress,
                          gpointer             progress_data,
                          GCancellable        *cancellable,
                          GError             **error)
{
  HtParser p = { 0 };
  TmHeaptrackSource *src;
  TmHeaptrackReader *reader;
  TmTraceHeader h = { 0 };
  gboolean stopped = FALSE, first = TRUE, failed = FALSE, at_limit = FALSE;
  g_autofree char *version = NULL;
  TmTrace *trace;
  guint64 size;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  src = tm_heaptrack_source_open (path, error);
  if (src == NULL)
    return NULL;
  size = tm_heaptrack_source_size (src);

  p.path = path;
  p.b = tm_trace_builder_new (path, "heaptrack");
  tm_trace_builder_set_memory_limit (p.b, tm_load_options_memory_limit (options));
  if (options != NULL)
    tm_trace_builder_set_partial_timeline (p.b, options->partial_timeline, options->partial_data);
  p.strings = g_ptr_array_new_with_free_func (g_free);
  p.ips = g_array_new (FALSE, FALSE, sizeof (HtIp));
  p.frames = g_array_new (FALSE, FALSE, sizeof (HtFrame));
  p.traces = g_array_new (FALSE, FALSE, sizeof (HtTrace));
  p.infos = g_array_new (FALSE, FALSE, sizeof (HtInfo));
  p.trace_site = g_array_new (FALSE, FALSE, sizeof (guint32));
  p.point_temporary = g_array_new (FALSE, FALSE, sizeof (guint64));
  p.point_rss = g_array_new (FALSE, FALSE, sizeof (guint64));
  p.point_ms = POINT_MS;
  p.page_size = 4096;
  tm_trace_builder_space (p.b, 1, TM_SPACE_KIND_OTHER, "heap", NULL);

  reader = tm_heaptrack_reader_start (src);

  for (;;)
    {
      TmHeaptrackChunk *c = tm_heaptrack_reader_next (reader);
      gboolean last = c->last;

      if (!failed && !stopped)
        {
          if (first && (c->text_len > 0 || c->cut || c->error || c->too_long))
            {
              first = FALSE;
              if (c->error && c->text_len == 0)
                {
                  /* damaged before the first line: nothing to show */
                  g_propagate_error (error, g_steal_pointer (&c->error));
                  failed = TRUE;
                }
              else if (!looks_like_heaptrack (c->text, c->text_len))
                {
                  g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE, _("%s: not a heaptrack data file (no version line)"),
                               path);
                  failed = TRUE;
                }
              else if (!supported_version (c->text, c->text_len, path, error) ||
                       raw_data (c->text, c->text_len, path, error))
                failed = TRUE;
            }
          for (gsize i = 0; i < c->n_ops && !failed && !p.over_limit; i++)
            {
              guint64 op;

              i = plain_ops (&p, c, i);
              if (i == c->n_ops)
                break;
              op = c->ops[i];
              p.line_no++;
              switch (op & 3)
                {
                case 0:
                  /* offsets of "+"/"-" lines are their chunk's; line numbers are exact */
                  p.line_offset = c->offset;
                  on_alloc (&p, op >> 2, p.n_objects);
                  break;
                case 1:
                  p.line_offset = c->offset;
                  on_free (&p, op >> 2, (guint32) c->ops[++i]);
                  break;
                default:   /* TM_HEAPTRACK_OP_OTHER */
                  {
                    const char *line = c->text + (op >> 2);
                    const char *nl = memchr (line, '\n', c->text_len - (op >> 2));
                    p.line_offset = c->offset + (op >> 2);
                    handle_line (&p, line, nl);
                  }
                }
            }
          if (!failed && g_cancellable_is_cancelled (cancellable))
            {
              g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("%s: loading cancelled"), path);
              failed = TRUE;
            }
          if (!failed && (p.over_limit || tm_trace_builder_over_memory_limit (p.b)))
            {
              g_autofree char *where = g_strdup_printf ("line %" G_GUINT64_FORMAT " (uncompressed byte offset %" G_GUINT64_FORMAT ")",
                                                        p.line_no, p.line_offset);
              tm_trace_builder_stop_at_memory_limit (p.b, c->compressed, where);
              stopped = at_limit = TRUE;
            }
          else if (!failed && c->offset + c->text_len - p.progress_offset > MAX_TEXT_WITHOUT_PROGRESS)
            {
              tm_trace_builder_warning (p.b, c->compressed,
                                        "reading stopped at line %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " MiB of text since "
                                        "uncompressed byte offset %" G_GUINT64_FORMAT " hold no record that adds to the "
                                        "model (padding or damage)", p.line_no, MAX_TEXT_WITHOUT_PROGRESS >> 20,
                                        p.progress_offset);
              tm_trace_builder_stopped (p.b, c->compressed);
              stopped = TRUE;
            }
          if (!failed && !stopped && c->too_long)
            {
              tm_trace_builder_warning (p.b, c->offset + c->text_len,
                                        "line longer than %d bytes: not a heaptrack file past here", TM_HEAPTRACK_CHUNK_TEXT);
              tm_trace_builder_stopped (p.b, c->compressed);
              stopped = TRUE;
            }
          if (!failed && !stopped && c->error != NULL)
            {
              tm_trace_builder_warning (p.b, c->compressed, "%s", c->error->message);
              tm_trace_builder_stopped (p.b, c->compressed);
              stopped = TRUE;
            }
          else if (!failed && c->cut && !stopped)
            {
              p.line_offset = c->offset + c->text_len;
              p.line_no++;
              complain (&p, "last line has no end: the file was cut short");
              p.line_no--;
            }
          if (!failed && progress != NULL && size > 0)
            progress (MIN (1.0, (double) c->compressed / (double) size), progress_data);
          if (failed || stopped)
            tm_heaptrack_reader_stop (reader);
        }
      tm_heaptrack_reader_release (reader, c);
      if (last)
        break;
    }
  tm_heaptrack_reader_free (reader);

  if (!failed && g_cancellable_is_cancelled (cancellable))
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("%s: loading cancelled"), path);
      failed = TRUE;
    }
  if (!failed && first)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE, _("%s: empty heaptrack file"), path);
      failed = TRUE;
    }
  if (failed)
    {
      tm_heaptrack_source_close (src);
      parser_clear (&p);
      tm_trace_builder_free (p.b);
      return NULL;
    }
  if (!stopped && tm_heaptrack_source_cut_short (src))
    {
      tm_trace_builder_warning (p.b, tm_heaptrack_source_offset (src),
                                "compressed data ends in the middle of a frame: the file was cut short");
      tm_trace_builder_stopped (p.b, tm_heaptrack_source_offset (src));
      stopped = TRUE;
    }
  tm_heaptrack_source_close (src);

  /* the last point: what is still allocated at the end (heaptrack's "leaked") */
  if (p.dirty || p.n_points == 0)
    emit_point (&p, p.now_ms);
  if (p.n_scratch > 0 && at_limit)
    {
      /* read before the stop and charged: rows, as the blocks were before */
      tm_trace_builder_close_past_limit (p.b);
      p.over_limit = FALSE;
      scratch_to_rows (&p);
    }

  version = g_strdup_printf ("%u.%u.%u", (p.heaptrack_version >> 16) & 0xff, (p.heaptrack_version >> 8) & 0xff,
                             p.heaptrack_version & 0xff);
  h.version = 1;
  h.vm_name = "heaptrack";
  h.vm_version = version;
  h.command_line = p.command_line ? p.command_line : "";
  h.pointer_size = 8;
  h.flags = TM_TRACE_FLAG_DEATHS;
  tm_trace_builder_header (p.b, &h);
  set_meta_u64 (p.b, "heaptrack.file_version", p.file_version);
  set_meta_u64 (p.b, "heaptrack.allocations", p.allocations);
  set_meta_u64 (p.b, "heaptrack.temporary", p.temporary);
  set_meta_u64 (p.b, "heaptrack.peak_bytes", (guint64) MAX (p.peak, 0));
  set_meta_u64 (p.b, "heaptrack.peak_time_ms", p.peak_time_ms);
  set_meta_u64 (p.b, "heaptrack.leaked_bytes", (guint64) MAX (p.leaked, 0));
  set_meta_u64 (p.b, "heaptrack.peak_rss_bytes", p.peak_rss_pages * p.page_size);
  set_meta_u64 (p.b, "heaptrack.total_time_ms", p.now_ms + 1);
  if (!stopped && !p.deaths_failed)
    tm_trace_builder_end (p.b, p.n_objects, p.n_deaths, p.n_points, p.now_ms * 1000000);
  if (progress != NULL)
    progress (1.0, progress_data);

  trace = tm_trace_builder_finish (p.b);
  /* heaptrack's temporary allocations per time point and the RSS sample
   * of its time stamp (which follows the stamp), for the charts */
  for (guint i = 0; trace != NULL && i < MIN (trace->gcs->len, p.point_temporary->len); i++)
    {
      TmGc *gc = &g_array_index (trace->gcs, TmGc, i);
      guint64 rss = tm_mul_sat (g_array_index (p.point_rss, guint64, i), p.page_size);

      gc->temporary_before = g_array_index (p.point_temporary, guint64, i);
      gc->committed_after = rss;
      if (gc->usage_count == 1 && gc->usage_first < trace->space_usage->len)
        g_array_index (trace->space_usage, TmSpaceUsage, gc->usage_first).committed_after = rss;
    }
  parser_clear (&p);
  return trace;
}

TmTrace *
tm_heaptrack_import (const char     *path,
                     TmProgressFunc  progress,
                     gpointer        progress_data,
                     GCancellable   *cancellable,
                     GError        **error)
{
  return tm_heaptrack_import_full (path, NULL, progress, progress_data, cancellable, error);
}
