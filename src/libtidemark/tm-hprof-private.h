/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The HPROF parser shared by the importer (which builds the model) and the
 * graph reader (which reads the same file again for one heap state).  Both
 * number the objects identically: in the order the dump lists them.
 */
#pragma once

#include <gio/gio.h>

#include "tm-vec.h"
#include "tm-heaptrack-private.h"
#include "tm-trace-loader.h"
#include "tm-trace-private.h"

G_BEGIN_DECLS

/* Builder type ids of the importer: primitive arrays by HPROF basic type
 * (4..11), class objects, then classes in the order they are first used. */
#define TM_HPROF_TYPE_CLASS       1u
#define TM_HPROF_TYPE_FIRST_CLASS 16u

/* An edge label: a field (index into labels) or, with the top bit, an
 * array element index. */
#define TM_HPROF_LABEL_NONE  0u
#define TM_HPROF_LABEL_INDEX 0x80000000u

typedef struct _HprofParser HprofParser;

/* Object address -> object index (dump order), tm-hprof-addr.c.  Keys
 * of a run are 4 bytes (base + 8 * k32[i]) where addresses allow, as
 * HotSpot's 8-byte aligned ones within 32 GiB do; else 8. */
typedef struct {
  guint32 *k32;        /* ascending, or NULL: */
  guint64 *key;        /* ascending */
  guint64  base;
  guint32 *idx;        /* NULL: key i is object first + i */
  guint32  first;
  gsize    len;
  gsize    cur;        /* while reading: first key >= the last address added */
  guint32 *dir;        /* after sealing: bucket -> first position */
  guint    shift;
} HprofAddrRun;

/* A dense ascending run as a bitmap: bit k is an object at base + 8 k,
 * its index first + the bits set before it (rank[] counts them per
 * word).  HotSpot's heap walk gives runs whose objects lie side by side:
 * under a byte per object instead of 4, and a lookup is a bit test. */
typedef struct {
  guint64 *bits;
  guint32 *rank;       /* per word: bits set in the words before */
  gsize    n_words;
  guint64  base;
  guint32  first;
  gsize    len;
} HprofAddrDense;

typedef enum { HPROF_CUR_BITS, HPROF_CUR_K32, HPROF_CUR_WIDE } HprofCurMode;

typedef struct {
  HprofAddrRun runs[64];   /* sorted runs, each under half the one below */
  guint        n_runs;
  HprofAddrDense dense[64]; /* dense runs (the others go to runs) */
  guint        n_dense;
  /* the ascending run being read: as a bitmap while it is dense and its
   * addresses are multiples of 8 apart, then compact in cur32 until an
   * address does not fit, then in cur */
  HprofCurMode cur_mode;
  TmVecU64     cur_bits;
  TmVecU32     cur_rank;
  gsize        cur_count;  /* objects in the current run */
  TmVecU32     cur32;
  TmVecU64     cur;
  guint64      cur_base;
  guint32      cur_first;
  guint64      last;       /* the last address offered (added or not) */
  guint64      closed_max; /* no address of runs and dense is higher */
  guint64      free_below; /* no run before the current one holds an address in (last, free_below) */
  gboolean     offered;
  guint32      n;          /* objects added: the next one's index */
  guint8       order[64];  /* after sealing: runs by size, largest first */
  gboolean     sealed;
} HprofAddrIndex;

/* Adds the next object (index x->n); FALSE if the address is there.
 * Use hprof_addr_add(); the lookup after dense[0]: hprof_addr_find(). */
gboolean hprof_addr_add_slow  (HprofAddrIndex *x, guint64 addr);
gboolean hprof_addr_find_slow (const HprofAddrIndex *x, guint64 addr, guint32 *index);

/* The usual case inline: the next address of the dense run being read,
 * where no earlier run has addresses, in a word the bitmap has. */
static inline gboolean
hprof_addr_add (HprofAddrIndex *x, guint64 addr)
{
  if (G_LIKELY (x->cur_mode == HPROF_CUR_BITS && x->cur_count > 0 && addr > x->last && addr < x->free_below))
    {
      guint64 d = addr - x->cur_base, w = d >> 9;
      if (G_LIKELY ((d & 7) == 0 && w < x->cur_bits.len))
        {
          x->cur_bits.data[w] |= G_GUINT64_CONSTANT (1) << ((d >> 3) & 63);
          x->cur_count++;
          x->last = addr;
          x->n++;
          return TRUE;
        }
    }
  return hprof_addr_add_slow (x, addr);
}

/* hw: count with the CPU's popcnt instruction, for callers compiled
 * for it (else tm_popcount64) */
G_ALWAYS_INLINE static inline gboolean
hprof_dense_find_with (const HprofAddrDense *r, guint64 a, guint32 *index, const gboolean hw)
{
  guint64 d = a - r->base, g, w, word;

  if (a < r->base || (d & 7))
    return FALSE;
  g = d >> 3;
  w = g >> 6;
  if (w >= r->n_words)
    return FALSE;
  word = r->bits[w];
  if (!((word >> (g & 63)) & 1))
    return FALSE;
  word &= (G_GUINT64_CONSTANT (1) << (g & 63)) - 1;
  if (index != NULL)
    *index = r->first + r->rank[w] + (hw ? (guint) __builtin_popcountll (word) : tm_popcount64 (word));
  return TRUE;
}

static inline gboolean
hprof_dense_find (const HprofAddrDense *r, guint64 a, guint32 *index)
{
  return hprof_dense_find_with (r, a, index, FALSE);
}

/* Once sealed, the largest dense run is the first: most lookups end
 * there, inline. */
static inline gboolean
hprof_addr_find (const HprofAddrIndex *x, guint64 addr, guint32 *index)
{
  if (G_LIKELY (x->n_dense > 0) && hprof_dense_find (&x->dense[0], addr, index))
    return TRUE;
  return hprof_addr_find_slow (x, addr, index);
}
/* Once every object is added: faster lookups (adding is over). */
void     hprof_addr_seal  (HprofAddrIndex *x);
guint64  hprof_addr_bytes (const HprofAddrIndex *x);
void     hprof_addr_clear (HprofAddrIndex *x);

typedef struct {
  /* a type is used for the first time (import only) */
  void (*type)   (gpointer user, guint32 type_id, const char *name, guint32 flags);
  /* objects first .. first + n - 1 (0-based, dump order), each with its
   * type and shallow size; the sink takes both arrays (g_free) */
  void (*objects) (gpointer user, guint32 first, guint n, guint32 *type_ids, guint64 *sizes);
  /* a thread seen in a root (serial number from the dump) */
  void (*thread) (gpointer user, guint32 serial);
  /* at the end (import only): the superclass of a type; superclasses
   * without instances are defined as types first */
  void (*hierarchy) (gpointer user, guint32 type_id, guint32 super_type_id);
  /* now and then while reading (import only): TRUE when the model plus
   * `parser_bytes` (the parser's own tables) exceed the memory budget;
   * reading then stops there, as at a cut.  Else *used gets the model's
   * bytes plus parser_bytes, *room what the budget leaves beyond them. */
  gboolean (*over_budget) (gpointer user, guint64 parser_bytes, guint64 *used, guint64 *room);
} HprofSink;

/* A sink whose calls run on a thread of their own, in order, while the
 * parser reads on (tm-hprof-pipe.c): parse with hprof_pipe_sink() and the
 * pipe as its user; hprof_pipe_free() waits for the last call. */
typedef struct _HprofPipe HprofPipe;

HprofPipe       *hprof_pipe_new  (const HprofSink *inner, gpointer user);
const HprofSink *hprof_pipe_sink (void);
void             hprof_pipe_free (HprofPipe *pipe);

/* Words from the parsing thread to one that applies them in order
 * (tm-hprof-stream.c).  The writer holds one chunk at a time: it fills
 * it and trades it for an empty one with hprof_stream_send() (the first
 * with NULL); hprof_stream_free() applies what was sent and the chunk
 * given, then ends the thread.  hprof_stream_new() returns NULL when no
 * thread can be made. */
#define HPROF_CHUNK_WORDS 16384u

typedef struct {
  gsize   len;
  guint64 w[];
} HprofChunk;

typedef struct _HprofStream HprofStream;
typedef void (*HprofStreamApply) (gpointer user, const guint64 *words, gsize n);

HprofStream *hprof_stream_new   (HprofStreamApply apply, gpointer user);
HprofChunk  *hprof_stream_send  (HprofStream *s, HprofChunk *c);
/* the applying side answers a question the writer waits for */
void         hprof_stream_reply (HprofStream *s, gboolean answer);
gboolean     hprof_stream_wait  (HprofStream *s);
void         hprof_stream_free  (HprofStream *s, HprofChunk *current);

/* A root, resolved: object index, TmRootKind, thread serial, label. */
typedef struct {
  guint32 object;
  guint8  kind;
  guint32 thread;
  guint32 label;
} HprofRoot;

typedef struct {
  /* header */
  guint       id_size;
  guint64     header_ms;      /* dump time stamp, ms since the epoch */
  char       *version;        /* "JAVA PROFILE 1.0.2" */
  gboolean    have_dump;      /* a HEAP DUMP (SEGMENT) was seen */
  guint64     dump_time_us;   /* record time of the first one, since header_ms */
  /* objects */
  guint32     n_objects;
  guint64     total_bytes;
  /* resolved references in compressed-sparse-row form: object i
   * references dst[off[i] .. off[i + 1]), in dump order */
  TmVecU32    off;            /* n_objects + 1 entries */
  TmVecU32    dst;            /* target object index */
  TmVecU32    label;          /* with labels only: parallel to dst */
  GArray     *roots;          /* HprofRoot */
  GPtrArray  *labels;         /* with labels only: label -> "field" / "Class.field"; [0] = NULL */
  guint64     dangling_refs;  /* targets not in the dump */
  guint64     dangling_roots;
  guint64     unknown_layout; /* instances whose class dump came too late or never */
  /* where and why reading stopped early (stopped == FALSE: read to the end) */
  gboolean    stopped;
  guint64     stop_offset;
  char       *stop_reason;
  GPtrArray  *notes;          /* char*: skipped damage that did not stop reading */
  GPtrArray  *note_offsets;   /* guint64 as pointer-size ints, parallel to notes */
} HprofResult;

/* Reads the whole dump.  Returns FALSE with an error only when the file
 * cannot be used at all (unreadable, not HPROF, damaged header, cancelled);
 * damage later on fills result->stopped/stop_reason instead. */
gboolean tm_hprof_parse        (const char      *path,
                                const HprofSink *sink,
                                gpointer         user,
                                gboolean         want_labels,
                                TmProgressFunc   progress,
                                gpointer         progress_data,
                                GCancellable    *cancellable,
                                HprofResult     *result,
                                GError         **error);
void     tm_hprof_result_clear (HprofResult *result);

/* TRUE: imports apply what they parse on the parsing thread, as the
 * graph read does (tests and benchmarks compare the two ways). */
void     hprof_parse_set_one_thread (gboolean on);

G_END_DECLS
