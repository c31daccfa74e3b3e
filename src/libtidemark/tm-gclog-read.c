/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Reading GC logs: plain text, gzip or zstd (logs are often archived
 * compressed), from a file or from memory, split into lines for the
 * parsers.  A file whose tail is not text (the NUL bytes a crash or a
 * power loss leaves in a log being written) is read up to the damage,
 * which is reported with its byte offset.
 */
#include "tm-config.h"
#include <glib/gi18n-lib.h>

#include <errno.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "tm-gclog.h"
#include "tm-gclog-private.h"
#include "tm-heaptrack-private.h"
#include "tm-error.h"
#include "tm-format-util.h"

#define READ_CHUNK   (1024 * 1024)
#define MAX_LINE     (256 * 1024)   /* longer lines are cut (and reported) */
#define CHECK_EVERY  1024           /* lines between progress/cancel checks */
#define SNIFF_TEXT   (132u << 10)   /* text looked at to recognise a log */
#define SNIFF_LINES  400
/* Progress per byte: a run of damage (NUL bytes, binary data) this long
 * ends the read: a zero-filled tail of gigabytes need not be scanned. */
#define MAX_DAMAGE   (G_GUINT64_CONSTANT (64) << 20)
/* ... and this much text in a row without a GC event or heap figure
 * (lines of other tags, padding): far more than a JVM writes between two
 * GCs with -Xlog:gc*, little to read at disk speed. */
#define MAX_IDLE_TEXT (G_GUINT64_CONSTANT (256) << 20)

typedef enum { TEXT_CLEAN, TEXT_DIRTY, TEXT_BINARY } TextKind;

/* Whether [s, end) is printable ASCII only (0x20 to 0x7e), eight bytes
 * at a time: a byte below 0x20 borrows into its top bit when 0x20 is
 * taken from it, and one of 0x7f or more has it set after adding 1. */
static gboolean
printable_ascii (const char *s, const char *end)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101), tops = ones * 0x80;

  for (; end - s >= 8; s += 8)
    {
      guint64 w;
      memcpy (&w, s, 8);
      if ((((w - ones * 0x20) & ~w) | w | (w + ones)) & tops)
        return FALSE;
    }
  for (; s < end; s++)
    if ((guchar) *s < 0x20 || (guchar) *s >= 0x7f)
      return FALSE;
  return TRUE;
}

/* Binary: NUL bytes, or a quarter of control characters and bytes that
 * are not UTF-8.  Dirty: some of those.  Clean: text. */
static TextKind
text_kind (const char *s, const char *end)
{
  gsize n = (gsize) (end - s), ctl = 0, high = 0;

  if (n == 0 || printable_ascii (s, end))
    return TEXT_CLEAN;
  if (memchr (s, '\0', n) != NULL)
    return TEXT_BINARY;
  for (const char *q = s; q < end; q++)
    {
      guchar c = (guchar) *q;
      if (c >= 0x80)
        high++;
      else if ((c < 0x20 && c != '\t' && c != '\r' && c != '\f' && c != '\v' && c != 0x1b) || c == 0x7f)
        ctl++;
    }
  if (high > 0 && g_utf8_validate_len (s, n, NULL))
    high = 0;
  if ((ctl + high) * 4 > n)
    return TEXT_BINARY;
  return ctl + high > 0 ? TEXT_DIRTY : TEXT_CLEAN;
}

static gboolean
binary_text (const char *s, const char *end)
{
  return text_kind (s, end) == TEXT_BINARY;
}

#define MAX_UTF16 (G_GUINT64_CONSTANT (512) << 20)

/* A log saved as UTF-16 (PowerShell's "> gc.log" writes it so, with a
 * byte order mark): its text as UTF-8, or NULL if it is none.  A cut
 * last character is dropped. */
static char *
utf16_text (const guint8 *data, gsize len, gsize *out_len)
{
  if (len < 4 || !((data[0] == 0xff && data[1] == 0xfe) || (data[0] == 0xfe && data[1] == 0xff)))
    return NULL;
  return g_convert ((const char *) data, (gssize) (len & ~(gsize) 1), "UTF-8", "UTF-16", NULL, out_len, NULL);
}

/* Decides on the text it can read: the lines before any binary damage. */
gboolean
tm_gclog_sniff (const guint8 *head, gsize len)
{
  g_autofree guint8 *inflated = NULL;
  const char *s, *end;
  guint lines = 0;
  gsize n16 = 0;
  g_autofree char *text16 = NULL;

  g_return_val_if_fail (head != NULL || len == 0, FALSE);
  if (len == 0)
    return FALSE;
  if ((text16 = utf16_text (head, len, &n16)) != NULL)
    return tm_gclog_sniff ((const guint8 *) text16, n16);
  if (tm_heaptrack_compression (head, len) != TM_HEAPTRACK_PLAIN)
    {
      gsize n;
      inflated = g_malloc (SNIFF_TEXT);
      n = tm_heaptrack_inflate_head (head, len, inflated, SNIFF_TEXT);
      s = (const char *) inflated;
      end = s + n;
    }
  else
    {
      s = (const char *) head;
      end = s + len;
    }
  while (s < end && lines < SNIFF_LINES)
    {
      const char *nl = memchr (s, '\n', end - s);
      const char *le = nl ? nl : end;

      if (binary_text (s, le))
        return FALSE;
      if (le > s && le[-1] == '\r')
        le--;
      if (lines == 0 && tm_gclog_has_prefix (s, le, "\xef\xbb\xbf"))
        s += 3;   /* a UTF-8 byte order mark */
      if (tm_gclog_ujl_sniff_line (s, le) || tm_gclog_legacy_sniff_line (s, le) || tm_gclog_exit_summary_line (s, le))
        return TRUE;
      if (nl == NULL)
        break;
      s = nl + 1;
      lines++;
    }
  return FALSE;
}

typedef struct {
  TmGclogParser  *p;
  TmProgressFunc  progress;
  gpointer        progress_data;
  GCancellable   *cancellable;
  guint64         done_before;   /* compressed bytes of the files read before */
  guint64         total_size;
  gsize           text_size;     /* when known (plain text in memory): the whole text */
  /* a run of lines that are not text */
  gboolean        in_damage;
  guint64         damage_offset;
  guint64         damage_line;
  guint64         memory_limit;
  gboolean        over_limit;    /* stopped at the memory budget */
  /* progress per byte: where the model last grew */
  guint64         model_size;    /* events + usage records then */
  guint64         model_offset;  /* text offset then */
} TmGclogRead;

static void
damage_begins (TmGclogRead *r, guint64 offset)
{
  if (r->in_damage)
    return;
  r->in_damage = TRUE;
  r->damage_offset = offset;
  r->damage_line = r->p->line_no + 1;
}

/* Text again after a damaged run: say what was skipped, read on. */
static void
damage_ends (TmGclogRead *r, guint64 offset)
{
  if (!r->in_damage)
    return;
  r->in_damage = FALSE;
  r->p->n_bad_lines++;
  tm_trace_builder_warning (r->p->b, r->damage_offset,
                            "line %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " bytes that are not text (NUL bytes or"
                            " binary data) skipped, from byte offset %" G_GUINT64_FORMAT,
                            r->damage_line, offset - r->damage_offset, r->damage_offset);
}

static void
stop_at (TmGclogRead *r, guint64 offset)
{
  tm_trace_builder_stopped (r->p->b, offset);
}

/* Events wait in the parser until the log is read; each becomes a GC of
 * the model.  At the budget, reading stops before the line at `offset`. */
static gboolean
over_memory_limit (TmGclogRead *r, guint64 offset)
{
  TmGclogParser *p = r->p;
  g_autofree char *where = NULL;

  if ((guint64) p->events->len * (sizeof (TmGclogEvent) + sizeof (TmGc))
      + (guint64) p->usage->len * (sizeof (TmGclogUsage) + sizeof (TmSpaceUsage))
      + (guint64) p->phases->len * 2 * sizeof (TmGcPhase) <= r->memory_limit
      && !tm_trace_builder_over_memory_limit (p->b))
    return FALSE;
  where = g_strdup_printf ("line %" G_GUINT64_FORMAT " (byte offset %" G_GUINT64_FORMAT ")", p->line_no + 1, offset);
  tm_trace_builder_stop_at_memory_limit (p->b, offset, where);
  /* the events read so far fit: they become the GCs of the partial trace */
  tm_trace_builder_close_past_limit (p->b);
  r->over_limit = TRUE;
  return TRUE;
}

/* Progress per byte: text that adds nothing to the model ends the read. */
static gboolean
idle_too_long (TmGclogRead *r, guint64 offset)
{
  TmGclogParser *p = r->p;
  guint64 size = (guint64) p->events->len + p->usage->len;

  if (size != r->model_size || offset < r->model_offset)
    {
      r->model_size = size;
      r->model_offset = offset;
      return FALSE;
    }
  if (offset - r->model_offset <= MAX_IDLE_TEXT)
    return FALSE;
  p->n_bad_lines++;
  tm_trace_builder_warning (p->b, offset,
                            "line %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " MiB of text since byte offset %"
                            G_GUINT64_FORMAT " hold no GC event or heap figure (padding, or lines of other tags): "
                            "reading stopped here", p->line_no, MAX_IDLE_TEXT >> 20, r->model_offset);
  stop_at (r, offset);
  return TRUE;
}

/* Every line of one source into the parser.  FALSE only when cancelled. */
static gboolean
read_source (TmGclogRead *r, TmHeaptrackSource *src, GError **error)
{
  TmGclogParser *p = r->p;
  /* small inputs (the fuzzer's) need no megabyte buffers */
  const gsize chunk = r->text_size > 0 ? MIN (READ_CHUNK, r->text_size + 1) : READ_CHUNK;
  const gsize max_line = r->text_size > 0 ? MIN (MAX_LINE, r->text_size + 1) : MAX_LINE;
  char *buf = g_malloc (chunk + max_line);
  gsize have = 0;
  guint64 consumed = 0;   /* text offset of buf[0] */
  gboolean cut_line = FALSE, eof = FALSE, ok = TRUE;
  const gboolean compressed = tm_heaptrack_source_kind (src) != TM_HEAPTRACK_PLAIN;

  while (!eof)
    {
      g_autoptr(GError) read_error = NULL;
      gssize n = tm_heaptrack_source_read (src, (guint8 *) buf + have, chunk, &read_error);
      const char *s = buf, *end;

      if (n < 0)
        {
          /* damaged compressed data: keep what decoded */
          p->n_bad_lines++;
          tm_trace_builder_warning (p->b, tm_heaptrack_source_offset (src), "%s", read_error->message);
          stop_at (r, tm_heaptrack_source_offset (src));
          n = 0;
        }
      if (n == 0)
        {
          eof = TRUE;
          if (compressed && tm_heaptrack_source_cut_short (src))
            {
              p->n_bad_lines++;
              tm_trace_builder_warning (p->b, tm_heaptrack_source_offset (src),
                                        "compressed data cut short at byte offset %" G_GUINT64_FORMAT,
                                        tm_heaptrack_source_offset (src));
              stop_at (r, tm_heaptrack_source_offset (src));
            }
        }
      have += (gsize) n;
      end = buf + have;
      for (;;)
        {
          const char *nl = memchr (s, '\n', end - s);
          guint64 offset = consumed + (guint64) (s - buf);

          if (nl == NULL)
            {
              if (eof && s < end)
                nl = end;   /* last line without newline */
              else
                break;
            }
          if (cut_line)
            cut_line = FALSE;   /* the rest of an overlong line */
          else if (binary_text (s, nl) ||
                   (r->in_damage && (nl - s < 8 || text_kind (s, nl) != TEXT_CLEAN)))
            {
              /* damage goes on until a line of clean text */
              damage_begins (r, offset);
              p->line_no++;
            }
          else
            {
              damage_ends (r, offset);
              p->line_no++;
              p->line_offset = offset;
              tm_gclog_handle_line (p, s, nl);
            }
          s = nl < end ? nl + 1 : end;
          if ((p->line_no % CHECK_EVERY) == 0)
            {
              if (g_cancellable_is_cancelled (r->cancellable))
                {
                  g_set_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, _("%s: loading cancelled"), p->path);
                  ok = FALSE;
                  goto out;
                }
              if (r->progress != NULL && r->total_size > 0)
                r->progress (MIN (1.0, (double) (r->done_before + tm_heaptrack_source_offset (src)) / (double) r->total_size),
                             r->progress_data);
              if (over_memory_limit (r, consumed + (guint64) (s - buf)))
                goto out;
              if (idle_too_long (r, consumed + (guint64) (s - buf)))
                goto out;
            }
        }
      consumed += (guint64) (s - buf);
      have = (gsize) (end - s);
      if (have >= max_line)
        {
          /* No newline in MAX_LINE bytes: not a log line. */
          if (binary_text (s, end))
            damage_begins (r, consumed);
          else
            {
              damage_ends (r, consumed);
              p->line_no++;
              p->line_offset = consumed;
              tm_gclog_warn (p, "line longer than %d bytes, skipped", MAX_LINE);
              p->line_no--;   /* the rest of this line is counted when it ends */
            }
          consumed += have;
          have = 0;
          cut_line = TRUE;
          if (!r->in_damage && idle_too_long (r, consumed))
            goto out;
        }
      else if (have > 0)
        memmove (buf, s, have);
      if (r->in_damage && consumed - r->damage_offset > MAX_DAMAGE)
        {
          r->in_damage = FALSE;
          p->n_bad_lines++;
          tm_trace_builder_warning (p->b, r->damage_offset,
                                    "line %" G_GUINT64_FORMAT ": %" G_GUINT64_FORMAT " MiB from byte offset %"
                                    G_GUINT64_FORMAT " are not text (NUL bytes or binary data): reading stopped there",
                                    r->damage_line, MAX_DAMAGE >> 20, r->damage_offset);
          stop_at (r, r->damage_offset);
          goto out;
        }
    }
  if (r->in_damage)
    {
      /* the file ends in damage: a crash while the log was written */
      r->in_damage = FALSE;
      p->n_bad_lines++;
      tm_trace_builder_warning (p->b, r->damage_offset,
                                "line %" G_GUINT64_FORMAT ": the rest of the file, from byte offset %" G_GUINT64_FORMAT
                                ", is not text (NUL bytes or binary data, as a crash leaves): reading stopped there",
                                r->damage_line, r->damage_offset);
      stop_at (r, r->damage_offset);
    }

out:
  g_free (buf);
  return ok;
}

static TmTrace *
import_source (TmHeaptrackSource *src, const char *path, gsize text_size, const TmLoadOptions *options,
               TmProgressFunc progress, gpointer progress_data, GCancellable *cancellable, gboolean utf16,
               GError **error)
{
  TmGclogParser p;
  TmGclogRead r = { 0 };
  TmTrace *t;

  tm_gclog_parser_init (&p, path);
  if (utf16)
    tm_trace_builder_meta (p.b, "gclog.encoding", "UTF-16 (byte offsets are those of its UTF-8 text)");
  r.p = &p;
  r.progress = progress;
  r.progress_data = progress_data;
  r.cancellable = cancellable;
  r.total_size = tm_heaptrack_source_size (src);
  r.text_size = text_size;
  r.memory_limit = tm_load_options_memory_limit (options);
  tm_trace_builder_set_memory_limit (p.b, r.memory_limit);
  if (!read_source (&r, src, error))
    {
      tm_heaptrack_source_close (src);
      tm_gclog_parser_clear (&p);
      return NULL;
    }
  tm_heaptrack_source_close (src);
  tm_gclog_end_source (&p);
  t = tm_gclog_parser_build (&p, error);
  if (t != NULL && progress != NULL)
    progress (1.0, progress_data);
  return t;
}

TmTrace *
tm_gclog_import (const char     *path,
                 TmProgressFunc  progress,
                 gpointer        progress_data,
                 GCancellable   *cancellable,
                 GError        **error)
{
  return tm_gclog_import_full (path, NULL, progress, progress_data, cancellable, error);
}

static TmTrace *
import_utf16 (const char *path, const TmLoadOptions *options, TmProgressFunc progress, gpointer progress_data,
              GCancellable *cancellable, GError **error)
{
  g_autofree char *raw = NULL, *text = NULL;
  gsize len = 0, n = 0;
  GStatBuf st;
  FILE *f;
  TmTrace *t;

  if (g_stat (path, &st) == 0 && (guint64) st.st_size > MAX_UTF16)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FORMAT,
                   _("%s: a UTF-16 GC log larger than %u MiB: convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)"),
                   path, (guint) (MAX_UTF16 >> 20));
      return NULL;
    }
  if (!g_file_get_contents (path, &raw, &len, error))
    return NULL;
  text = utf16_text ((const guint8 *) raw, len, &n);
  if (text == NULL || n == 0 || (f = fmemopen (text, n, "rb")) == NULL)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_FORMAT, _("%s: byte offset 0: UTF-16 byte order mark, but not UTF-16 text"),
                   path);
      return NULL;
    }
  g_clear_pointer (&raw, g_free);
  t = import_source (tm_heaptrack_source_new_for_file (f, path), path, n, options, progress, progress_data,
                     cancellable, TRUE, error);
  return t;
}

TmTrace *
tm_gclog_import_full (const char          *path,
                      const TmLoadOptions *options,
                      TmProgressFunc       progress,
                      gpointer             progress_data,
                      GCancellable        *cancellable,
                      GError             **error)
{
  TmHeaptrackSource *src;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  {
    /* UTF-16: read whole and converted (such logs are captures of a
     * console, small) */
    guint8 bom[2] = { 0, 0 };
    FILE *f = fopen (path, "rb");
    gboolean utf16 = f != NULL && fread (bom, 1, 2, f) == 2 &&
                     ((bom[0] == 0xff && bom[1] == 0xfe) || (bom[0] == 0xfe && bom[1] == 0xff));
    if (f != NULL)
      fclose (f);
    if (utf16)
      return import_utf16 (path, options, progress, progress_data, cancellable, error);
  }
  src = tm_heaptrack_source_open (path, error);
  if (src == NULL)
    return NULL;
  return import_source (src, path, 0, options, progress, progress_data, cancellable, FALSE, error);
}

TmTrace *
tm_gclog_import_bytes (const guint8 *data, gsize len, const char *name, GError **error)
{
  FILE *f;

  g_return_val_if_fail (data != NULL || len == 0, NULL);
  if (name == NULL)
    name = "(memory)";
  {
    gsize n = 0;
    g_autofree char *text = utf16_text (data, len, &n);
    if (text != NULL && n > 0 && (f = fmemopen (text, n, "rb")) != NULL)
      return import_source (tm_heaptrack_source_new_for_file (f, name), name, n, NULL, NULL, NULL, NULL, TRUE, error);
  }
  if (len == 0 || (f = fmemopen ((void *) data, len, "rb")) == NULL)
    {
      g_set_error (error, TM_ERROR, TM_ERROR_NOT_A_TRACE, _("%s: not a HotSpot GC log"), name);
      return NULL;
    }
  return import_source (tm_heaptrack_source_new_for_file (f, name), name,
                        tm_heaptrack_compression (data, len) == TM_HEAPTRACK_PLAIN ? len : 0, NULL, NULL, NULL, NULL,
                        FALSE, error);
}

/* ---- rotated logs: several files, one timeline ----------------------- */

#define HEAD_BYTES (64u << 10)

typedef struct {
  const char  *path;
  guint        index;      /* as given */
  gboolean     has_time;
  TmGclogTime  first;
  guint64      size;
} TmGclogPart;

/* The first time stamp near the start of a file (inflated if compressed). */
static void
part_head (TmGclogPart *part)
{
  g_autofree guint8 *head = g_malloc (HEAD_BYTES);
  g_autofree guint8 *text = g_malloc (SNIFF_TEXT);
  FILE *f = fopen (part->path, "rb");
  gsize n, len;
  const char *s, *end;

  if (f == NULL)
    return;
  n = fread (head, 1, HEAD_BYTES, f);
  fseek (f, 0, SEEK_END);
  part->size = (guint64) MAX (ftell (f), 0);
  fclose (f);
  len = tm_heaptrack_inflate_head (head, n, text, SNIFF_TEXT);
  s = (const char *) text;
  end = s + len;
  while (s < end)
    {
      const char *nl = memchr (s, '\n', end - s);
      const char *le = nl ? nl : end;

      if (tm_gclog_ujl_line_time (s, le, &part->first) || tm_gclog_legacy_line_time (s, le, &part->first))
        {
          part->has_time = TRUE;
          return;
        }
      if (nl == NULL)
        return;
      s = nl + 1;
    }
}

static gboolean all_uptime, all_wall;

static int
compare_parts (gconstpointer a, gconstpointer b)
{
  const TmGclogPart *x = a, *y = b;

  /* a part with no GC yet (only the header of a freshly rotated file)
   * cannot be placed by time: after the others */
  if (x->has_time != y->has_time)
    return x->has_time ? -1 : 1;
  if (all_uptime && x->first.uptime_ns != y->first.uptime_ns)
    return x->first.uptime_ns < y->first.uptime_ns ? -1 : 1;
  if (!all_uptime && all_wall && x->first.wall_ms != y->first.wall_ms)
    return x->first.wall_ms < y->first.wall_ms ? -1 : 1;
  return x->index < y->index ? -1 : x->index > y->index;
}

/* A part's first time on the parser's clock (uptime, else the wall clock
 * relative to the first stamp), or G_MAXUINT64 if it cannot be told. */
static guint64
part_start_ns (const TmGclogParser *p, const TmGclogPart *part)
{
  if (!part->has_time)
    return G_MAXUINT64;
  if (part->first.has_uptime)
    return part->first.uptime_ns;
  if (p->have_wall_base && part->first.wall_ms >= p->wall_base_ms)
    return (guint64) (part->first.wall_ms - p->wall_base_ms) * 1000000;
  return G_MAXUINT64;
}

TmTrace *
tm_gclog_import_series (const char *const *paths, guint n, const TmLoadOptions *options, TmProgressFunc progress,
                        gpointer progress_data, GCancellable *cancellable, GError **error)
{
  g_autofree TmGclogPart *parts = NULL;
  g_autoptr(GString) order = g_string_new (NULL);
  TmGclogParser p;
  TmGclogRead r = { 0 };
  TmTrace *t;
  guint64 prev_end = 0;

  g_return_val_if_fail (paths != NULL && n > 0, NULL);
  if (n == 1)
    return tm_gclog_import_full (paths[0], options, progress, progress_data, cancellable, error);

  /* in time order, as GCViewer's "series" does: rotation numbers wrap */
  parts = g_new0 (TmGclogPart, n);
  all_uptime = all_wall = TRUE;
  for (guint i = 0; i < n; i++)
    {
      parts[i].path = paths[i];
      parts[i].index = i;
      part_head (&parts[i]);
      if (parts[i].has_time)
        {
          all_uptime = all_uptime && parts[i].first.has_uptime;
          all_wall = all_wall && parts[i].first.has_wall;
        }
      r.total_size += parts[i].size;
    }
  qsort (parts, n, sizeof parts[0], (int (*) (const void *, const void *)) compare_parts);

  tm_gclog_parser_init (&p, parts[0].path);
  r.p = &p;
  r.progress = progress;
  r.progress_data = progress_data;
  r.cancellable = cancellable;
  r.memory_limit = tm_load_options_memory_limit (options);
  tm_trace_builder_set_memory_limit (p.b, r.memory_limit);
  for (guint i = 0; i < n && !r.over_limit; i++)
    {
      TmHeaptrackSource *src = tm_heaptrack_source_open (parts[i].path, error);
      guint64 start;
      gboolean ok;

      if (src == NULL)
        {
          tm_gclog_parser_clear (&p);
          return NULL;
        }
      /* warnings name the part they are about */
      tm_trace_builder_set_path (p.b, parts[i].path);
      p.path = parts[i].path;
      p.n_lines_total += p.line_no;
      p.line_no = 0;
      /* parts that overlap are merged in time order (reported below),
       * not taken for another run appended (tm_gclog_uptime) */
      p.have_run_uptime = FALSE;
      start = part_start_ns (&p, &parts[i]);
      if (i > 0 && start != G_MAXUINT64 && start < prev_end)
        {
          g_autofree char *a = tm_format_duration ((double) start);
          g_autofree char *b = tm_format_duration ((double) prev_end);
          p.n_bad_lines++;
          tm_trace_builder_warning (p.b, 0, "starts at %s, before %s ends (at %s): the parts overlap or come from "
                                    "different runs of the JVM; their GCs are merged in time order",
                                    a, parts[i - 1].path, b);
        }
      g_string_append_printf (order, "%s%s", i ? "\n" : "", parts[i].path);
      ok = read_source (&r, src, error);
      r.done_before += parts[i].size;
      tm_heaptrack_source_close (src);
      if (!ok)
        {
          tm_gclog_parser_clear (&p);
          return NULL;
        }
      prev_end = MAX (prev_end, p.now_ns);
    }
  tm_gclog_end_source (&p);
  tm_trace_builder_set_path (p.b, parts[0].path);
  p.path = parts[0].path;
  tm_trace_builder_meta (p.b, "gclog.files", order->str);
  t = tm_gclog_parser_build (&p, error);
  if (t != NULL && progress != NULL)
    progress (1.0, progress_data);
  return t;
}
