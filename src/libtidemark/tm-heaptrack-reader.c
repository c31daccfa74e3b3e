/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The reading half of the heaptrack importer, on two threads of its own:
 * one decompresses and cuts the text into chunks of whole lines, the
 * other parses the "+ INFO" / "- INFO" lines (nearly all of them) and
 * decides which block each free kills (the newest live one of its
 * allocation info), so that the loading thread only builds the model.
 * Chunks go round through three queues; the reader stops at the end of
 * the input or when told to.
 */
#include "tm-config.h"

#include <string.h>

#include "tm-heaptrack-private.h"

/* chunks in flight: one being filled, one tokenized, one loaded, and a
 * spare between each two stages */
#define QUEUE_DEPTH 6
/* Chunks start this small and double while the input fills them, so that
 * small files (and fuzz inputs) do not pay for 1 MiB buffers. */
#define FIRST_CHUNK_TEXT (64u << 10)

typedef struct {
  guint32 *items;
  guint32  len;
  guint32  cap;
} TmLiveStack;

struct _TmHeaptrackReader {
  TmHeaptrackSource *src;
  GThread           *thread;
  GThread           *tokenizer;
  GAsyncQueue       *raw;        /* whole lines, not yet split into ops */
  GAsyncQueue       *full;
  GAsyncQueue       *empty;
  gint               stop;       /* atomic: the consumer gives up */
  /* tokenizer thread only: the live objects of every allocation info, a
   * stack each (its top, the newest, is what a free kills; it was written
   * recently, so it is still in the cache) */
  GArray            *live;       /* TmLiveStack per info */
  guint64            n_objects;
};

static void
chunk_free (TmHeaptrackChunk *c)
{
  g_free (c->text);
  g_free (c->ops);
  g_clear_error (&c->error);
  g_free (c);
}

/* "+ INFO" / "- INFO": the info index, if the line is just that */
static inline gboolean
alloc_line (const char *s, const char *nl, guint64 *v)
{
  const char *q = s + 2;
  guint64 r = 0;
  guint8 d;

  while (q < nl && q - s < 17 && (d = tm_heaptrack_hex_digit ((guint8) *q)) < 16)
    {
      r = r << 4 | d;
      q++;
    }
  if (q == s + 2)
    return FALSE;
  while (q < nl && (*q == ' ' || *q == '\r'))
    q++;
  *v = r;
  return q == nl;
}

/* Hex digit values plus one, 0 for anything else: one load per character. */
static const guint8 hex_value1[256] = {
  ['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5, ['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
  ['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
  ['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* Splits a chunk into ops and keeps the live objects of every allocation
 * info (newest first), so that the building thread only builds.  The
 * chunk's and the stacks' fields live in locals: the stores into ops
 * cannot alias them. */
static void
tokenize (TmHeaptrackReader *r, TmHeaptrackChunk *c)
{
  const char *s = c->text, *end = c->text + c->text_len;
  guint64 *ops = c->ops;
  gsize n_ops = 0, cap_ops = c->cap_ops;
  TmLiveStack *live = (TmLiveStack *) (gpointer) r->live->data;
  guint64 n_live = r->live->len, n_objects = r->n_objects;

  while (s < end)
    {
      const char *nl;
      guint64 v = G_MAXUINT64;

      if (G_UNLIKELY (n_ops + 2 > cap_ops))
        {
          cap_ops = MAX (cap_ops * 2, 4096);
          ops = g_renew (guint64, ops, cap_ops);
        }
      if ((*s == '+' || *s == '-') && s + 2 < end && s[1] == ' ')
        {
          /* nearly every line: "+ 1a\n", parsed in one go */
          const char *q = s + 2;
          guint8 d;

          /* the text ends with a newline: no bound needed while digits
           * last; more than 15 (v wrapped) go the long way */
          v = 0;
          while ((d = hex_value1[(guint8) *q]) != 0)
            {
              v = v << 4 | (guint8) (d - 1);
              q++;
            }
          if (*q == '\n' && q > s + 2 && q - s < 18)
            nl = q;
          else
            {
              nl = memchr (s + 2, '\n', end - s - 2);
              if (!alloc_line (s, nl, &v))
                v = G_MAXUINT64;
            }
        }
      else
        nl = memchr (s, '\n', end - s);
      if (v < n_live)
        {
          /* "+"/"-" of a defined info (v stays G_MAXUINT64 otherwise) */
          TmLiveStack *stack = &live[v];
          if (*s == '+' && n_objects < TM_HEAPTRACK_NO_OBJECT - 1)
            {
              if (G_UNLIKELY (stack->len == stack->cap))
                {
                  stack->cap = MAX (stack->cap * 2, 4);
                  stack->items = g_renew (guint32, stack->items, stack->cap);
                }
              stack->items[stack->len++] = (guint32) n_objects++;
              ops[n_ops++] = v << 2;
              s = nl + 1;
              continue;
            }
          if (*s == '-')
            {
              ops[n_ops] = v << 2 | 1;
              ops[n_ops + 1] = stack->len > 0 ? stack->items[--stack->len] : TM_HEAPTRACK_NO_OBJECT;
              n_ops += 2;
              s = nl + 1;
              continue;
            }
        }
      if (*s == 'a' && (s + 1 == nl || s[1] == ' '))
        {
          /* every "a" line defines the next info, even a malformed one */
          TmLiveStack empty = { NULL, 0, 0 };
          g_array_append_val (r->live, empty);
          live = (TmLiveStack *) (gpointer) r->live->data;
          n_live = r->live->len;
        }
      ops[n_ops++] = (guint64) (s - c->text) << 2 | TM_HEAPTRACK_OP_OTHER;
      s = nl + 1;   /* text ends with a newline */
    }
  c->ops = ops;
  c->cap_ops = cap_ops;
  c->n_ops = n_ops;
  r->n_objects = n_objects;
}

static gpointer
producer (gpointer data)
{
  TmHeaptrackReader *r = data;
  gsize cap = FIRST_CHUNK_TEXT;
  char *carry = g_malloc (cap);
  gsize carry_len = 0;
  guint64 offset = 0;
  gboolean done = FALSE;

  for (;;)
    {
      TmHeaptrackChunk *c = g_async_queue_pop (r->empty);
      gsize have = carry_len;
      const char *last_nl = NULL;

      c->last = c->cut = c->too_long = FALSE;
      c->text_len = c->n_ops = 0;
      if (g_atomic_int_get (&r->stop))
        {
          /* the consumer gave up: one empty last chunk ends its loop */
          c->last = TRUE;
          g_async_queue_push (r->raw, c);
          break;
        }
      if (c->text_cap < cap)
        {
          g_free (c->text);
          c->text = g_malloc (cap);
          c->text_cap = cap;
        }
      memcpy (c->text, carry, carry_len);
      for (;;)
        {
          while (have < c->text_cap && !done)
            {
              gssize n = tm_heaptrack_source_read (r->src, (guint8 *) c->text + have, c->text_cap - have, &c->error);
              if (n <= 0)
                done = TRUE;
              else
                have += (gsize) n;
            }
          for (gsize i = have; i > 0; i--)
            if (c->text[i - 1] == '\n')
              {
                last_nl = c->text + i - 1;
                break;
              }
          /* a full chunk: the input is large, so are the next chunks (and
           * this one, if it holds no whole line yet) */
          if (have == c->text_cap && c->text_cap < TM_HEAPTRACK_CHUNK_TEXT)
            {
              cap = MIN (c->text_cap * 2, (gsize) TM_HEAPTRACK_CHUNK_TEXT);
              carry = g_realloc (carry, cap);
              if (last_nl == NULL)
                {
                  c->text = g_realloc (c->text, cap);
                  c->text_cap = cap;
                  continue;
                }
            }
          break;
        }
      c->text_len = last_nl ? (gsize) (last_nl - c->text) + 1 : 0;
      carry_len = have - c->text_len;
      if (carry_len > 0)
        memcpy (carry, c->text + c->text_len, carry_len);
      if (last_nl == NULL && have == TM_HEAPTRACK_CHUNK_TEXT)
        {
          c->too_long = TRUE;
          done = TRUE;
        }
      if (done && carry_len > 0 && !c->too_long)
        c->cut = TRUE;
      c->offset = offset;
      offset += c->text_len;
      c->compressed = tm_heaptrack_source_offset (r->src);
      c->last = done;
      g_async_queue_push (r->raw, c);
      if (done)
        break;
    }
  g_free (carry);
  return NULL;
}

/* The second stage: lines into ops, while the first decompresses the
 * next chunk (zstd is most of the work on poorly compressible files). */
static gpointer
tokenizer (gpointer data)
{
  TmHeaptrackReader *r = data;

  for (;;)
    {
      TmHeaptrackChunk *c = g_async_queue_pop (r->raw);
      gboolean last = c->last;

      if (!g_atomic_int_get (&r->stop))
        tokenize (r, c);
      else
        c->n_ops = 0;
      g_async_queue_push (r->full, c);
      if (last)
        break;
    }
  return NULL;
}

TmHeaptrackReader *
tm_heaptrack_reader_start (TmHeaptrackSource *src)
{
  TmHeaptrackReader *r = g_new0 (TmHeaptrackReader, 1);

  r->src = src;
  r->live = g_array_new (FALSE, FALSE, sizeof (TmLiveStack));
  r->raw = g_async_queue_new ();
  r->full = g_async_queue_new ();
  r->empty = g_async_queue_new ();
  for (guint i = 0; i < QUEUE_DEPTH; i++)
    {
      TmHeaptrackChunk *c = g_new0 (TmHeaptrackChunk, 1);
      c->text_cap = FIRST_CHUNK_TEXT;
      c->text = g_malloc (c->text_cap);
      g_async_queue_push (r->empty, c);
    }
  r->thread = g_thread_new ("tm-heaptrack-read", producer, r);
  r->tokenizer = g_thread_new ("tm-heaptrack-split", tokenizer, r);
  return r;
}

TmHeaptrackChunk *
tm_heaptrack_reader_next (TmHeaptrackReader *r)
{
  return g_async_queue_pop (r->full);
}

void
tm_heaptrack_reader_release (TmHeaptrackReader *r, TmHeaptrackChunk *c)
{
  g_clear_error (&c->error);
  g_async_queue_push (r->empty, c);
}

void
tm_heaptrack_reader_stop (TmHeaptrackReader *r)
{
  g_atomic_int_set (&r->stop, 1);
}

void
tm_heaptrack_reader_free (TmHeaptrackReader *r)
{
  TmHeaptrackChunk *c;

  if (r == NULL)
    return;
  g_thread_join (r->thread);
  g_thread_join (r->tokenizer);
  while ((c = g_async_queue_try_pop (r->raw)) != NULL)
    chunk_free (c);
  while ((c = g_async_queue_try_pop (r->full)) != NULL)
    chunk_free (c);
  while ((c = g_async_queue_try_pop (r->empty)) != NULL)
    chunk_free (c);
  g_async_queue_unref (r->raw);
  g_async_queue_unref (r->full);
  g_async_queue_unref (r->empty);
  for (guint i = 0; i < r->live->len; i++)
    g_free (g_array_index (r->live, TmLiveStack, i).items);
  g_array_unref (r->live);
  g_free (r);
}
