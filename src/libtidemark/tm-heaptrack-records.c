/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The definition records of heaptrack data files ("s", "i", "v"), read
 * the same way by the importer (tm-heaptrack.c) and by heaptrack's
 * figures per call stack (tm-heaptrack-profile.c).
 */
#include "tm-config.h"

#include "tm-heaptrack-private.h"
#include "tm-error.h"

#include <glib/gi18n-lib.h>

char *
tm_heaptrack_parse_string (guint32 file_version, const char *s, const char *end, const char **problem)
{
  guint64 len;

  *problem = NULL;
  if (file_version < 3)
    {
      /* the rest of the line, after the space behind "s" */
      if (s < end && *s == ' ')
        s++;
      return g_strndup (s, (gsize) (end - s));
    }
  if (!tm_heaptrack_read_hex (&s, end, &len))
    {
      *problem = "malformed string";
      len = 0;
    }
  if (s < end && *s == ' ')
    s++;
  if (len > (guint64) (end - s))
    {
      *problem = "string longer than its line";
      len = (guint64) (end - s);
    }
  return g_strndup (s, (gsize) len);
}

guint32
tm_heaptrack_parse_ip (const char *s, const char *end, guint64 *addr, guint32 *module, GArray *frames,
                       gboolean *malformed)
{
  guint64 v[3];
  guint32 n_frames = 0;

  *malformed = FALSE;
  if (!tm_heaptrack_read_hex (&s, end, &v[0]) || !tm_heaptrack_read_hex (&s, end, &v[1]))
    {
      *malformed = TRUE;
      v[0] = v[1] = 0;   /* keep the numbering of later ones */
    }
  *addr = v[0];
  *module = (guint32) MIN (v[1], G_MAXUINT32);
  /* frames: function [file line]; heaptrack keeps a function without file */
  for (;;)
    {
      TmHeaptrackFrame f = { 0 };
      int n = 0;
      while (n < 3 && tm_heaptrack_read_hex (&s, end, &v[n]))
        n++;
      if (n == 0)
        break;
      f.func = (guint32) MIN (v[0], G_MAXUINT32);
      if (n == 3)
        {
          f.file = (guint32) MIN (v[1], G_MAXUINT32);
          f.line = (guint32) MIN (v[2], G_MAXINT32);
          f.has_file = TRUE;
        }
      g_array_append_val (frames, f);
      n_frames++;
      if (n < 3)
        break;
    }
  return n_frames;
}

gboolean
tm_heaptrack_parse_version (const char *s, const char *end, guint64 *heaptrack, guint64 *format)
{
  *heaptrack = *format = 0;
  if (!tm_heaptrack_read_hex (&s, end, heaptrack))
    return FALSE;
  /* heaptrack 1.0 wrote no file version; its 0x010200 is format 1 */
  if (!tm_heaptrack_read_hex (&s, end, format))
    *format = *heaptrack == 0x010200 ? 1 : 0;
  return TRUE;
}

const char *
tm_heaptrack_parse_trace (const char *s, const char *end, guint n_ips, guint n_traces, guint32 *ip, guint32 *parent)
{
  guint64 a, b;

  *ip = *parent = 0;
  if (!tm_heaptrack_read_hex (&s, end, &a) || !tm_heaptrack_read_hex (&s, end, &b))
    return "malformed trace";
  /* parents come first; anything else would make a cycle */
  if (b > n_traces || a > n_ips)
    return "trace names an undefined parent or instruction pointer";
  *ip = (guint32) a;
  *parent = (guint32) b;
  return NULL;
}

const char *
tm_heaptrack_parse_info (const char *s, const char *end, guint n_traces, guint64 *size, guint32 *trace)
{
  guint64 b;

  *size = 0;
  *trace = 0;
  if (!tm_heaptrack_read_hex (&s, end, size) || !tm_heaptrack_read_hex (&s, end, &b))
    {
      *size = 0;
      return "malformed allocation info";
    }
  if (b > n_traces)
    return "allocation info names an undefined trace";
  *trace = (guint32) b;
  return NULL;
}

gboolean
tm_heaptrack_raw_record (const char *line, const char *end, const char *path, guint64 line_no, guint64 offset,
                         GError **error)
{
  g_autofree char *l = NULL, *o = NULL;

  if (end - line < 2 || (line[0] != 'm' && line[0] != 'x') || line[1] != ' ')
    return FALSE;
  l = g_strdup_printf ("%" G_GUINT64_FORMAT, line_no);
  o = g_strdup_printf ("%" G_GUINT64_FORMAT, offset);
  g_set_error (error, TM_ERROR, TM_ERROR_UNSUPPORTED,
               _("%s: line %s (byte %s): heaptrack's raw data (recorded with heaptrack --raw), which names"
                 " pointers and module maps: interpret it first, with heaptrack_interpret from heaptrack's"
                 " libexec folder: zstd -dc FILE | heaptrack_interpret | zstd > OUT.zst"),
               path, l, o);
  return TRUE;
}
