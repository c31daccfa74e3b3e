/* SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Lexer and recursive-descent parser of the data structure description
 * language (shared/ds-dsl.md).  Every error names file:line:column of the
 * token that was not expected; columns count characters, not bytes.
 */
#include "tm-dsl-private.h"
#include "tm-error.h"

#include <string.h>

typedef enum {
  TOK_EOF,
  TOK_NAME,
  TOK_LBRACE,
  TOK_RBRACE,
  TOK_LPAREN,
  TOK_RPAREN,
  TOK_SEMI,
} TokKind;

typedef struct {
  TokKind     kind;
  const char *start;
  gsize       len;
  guint       line;
  guint       column;
} Token;

typedef struct {
  const char *name;
  const char *text;
  gsize       len;
  gsize       pos;
  guint       line;
  guint       column;
  GError    **error;
} Lexer;

static gboolean G_GNUC_PRINTF (4, 5)
fail (Lexer *lx, guint line, guint column, const char *format, ...)
{
  va_list args;
  g_autofree char *reason = NULL;

  va_start (args, format);
  reason = g_strdup_vprintf (format, args);
  va_end (args);
  if (lx->error != NULL && *lx->error == NULL)
    g_set_error (lx->error, TM_ERROR, TM_ERROR_FORMAT, "%s:%u:%u: %s",
                 lx->name, line, column, reason);
  return FALSE;
}

static void
advance (Lexer *lx)
{
  guchar c = (guchar) lx->text[lx->pos++];

  if (c == '\n')
    {
      lx->line++;
      lx->column = 1;
    }
  else if ((c & 0xC0) != 0x80)   /* not a UTF-8 continuation byte */
    lx->column++;
}

static gboolean
is_name_char (guchar c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$' || c == '.' || c == '*' || c >= 0x80;
}

/* Skips white space and comments; FALSE on an unterminated comment. */
static gboolean
skip_blank (Lexer *lx)
{
  while (lx->pos < lx->len)
    {
      char c = lx->text[lx->pos];

      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
        advance (lx);
      else if (c == '/' && lx->pos + 1 < lx->len && lx->text[lx->pos + 1] == '/')
        {
          while (lx->pos < lx->len && lx->text[lx->pos] != '\n')
            advance (lx);
        }
      else if (c == '/' && lx->pos + 1 < lx->len && lx->text[lx->pos + 1] == '*')
        {
          guint line = lx->line, column = lx->column;

          advance (lx);
          advance (lx);
          for (;;)
            {
              if (lx->pos + 1 >= lx->len)
                return fail (lx, line, column, "unterminated comment");
              if (lx->text[lx->pos] == '*' && lx->text[lx->pos + 1] == '/')
                {
                  advance (lx);
                  advance (lx);
                  break;
                }
              advance (lx);
            }
        }
      else
        break;
    }
  return TRUE;
}

static gboolean
next_token (Lexer *lx, Token *tok)
{
  guchar c;

  if (!skip_blank (lx))
    return FALSE;

  tok->line = lx->line;
  tok->column = lx->column;
  tok->start = lx->text + lx->pos;
  tok->len = 1;

  if (lx->pos >= lx->len)
    {
      tok->kind = TOK_EOF;
      tok->len = 0;
      return TRUE;
    }

  c = (guchar) lx->text[lx->pos];
  switch (c)
    {
    case '{': tok->kind = TOK_LBRACE; advance (lx); return TRUE;
    case '}': tok->kind = TOK_RBRACE; advance (lx); return TRUE;
    case '(': tok->kind = TOK_LPAREN; advance (lx); return TRUE;
    case ')': tok->kind = TOK_RPAREN; advance (lx); return TRUE;
    case ';': tok->kind = TOK_SEMI; advance (lx); return TRUE;
    default: break;
    }

  if (!is_name_char (c))
    {
      if (c == '[')
        return fail (lx, tok->line, tok->column, "'[]' must follow a type name");
      if (g_ascii_isprint (c))
        return fail (lx, tok->line, tok->column, "unexpected character '%c'", c);
      return fail (lx, tok->line, tok->column, "unexpected byte 0x%02x", c);
    }

  tok->kind = TOK_NAME;
  while (lx->pos < lx->len && is_name_char ((guchar) lx->text[lx->pos]))
    advance (lx);
  /* trailing "[]" pairs, nothing after them */
  while (lx->pos < lx->len && lx->text[lx->pos] == '[')
    {
      guint line = lx->line, column = lx->column;

      advance (lx);
      if (lx->pos >= lx->len || lx->text[lx->pos] != ']')
        return fail (lx, line, column, "expected ']' after '['");
      advance (lx);
    }
  if (lx->pos < lx->len && is_name_char ((guchar) lx->text[lx->pos]))
    return fail (lx, lx->line, lx->column, "unexpected character after '[]'");
  tok->len = (gsize) (lx->text + lx->pos - tok->start);
  return TRUE;
}

static gboolean
peek_token (Lexer *lx, Token *tok)
{
  Lexer saved = *lx;
  GError *ignored = NULL;
  gboolean ok;

  lx->error = &ignored;
  ok = next_token (lx, tok);
  g_clear_error (&ignored);
  *lx = saved;
  return ok;
}

static gboolean
token_is (const Token *tok, const char *word)
{
  return tok->kind == TOK_NAME && tok->len == strlen (word) && memcmp (tok->start, word, tok->len) == 0;
}

static const char *
token_describe (const Token *tok)
{
  switch (tok->kind)
    {
    case TOK_EOF: return "end of file";
    case TOK_LBRACE: return "'{'";
    case TOK_RBRACE: return "'}'";
    case TOK_LPAREN: return "'('";
    case TOK_RPAREN: return "')'";
    case TOK_SEMI: return "';'";
    case TOK_NAME: default: return "a name";
    }
}

/* A name as messages quote it: at most QUOTE_MAX bytes, cut at a
 * character boundary, so that a 1 MB identifier makes a one-line error. */
#define QUOTE_MAX 60

static char *
quote_name (const char *text, gsize len)
{
  gsize cut = QUOTE_MAX - 3;

  if (len <= QUOTE_MAX)
    return g_strndup (text, len);
  while (cut > 0 && ((guchar) text[cut] & 0xc0) == 0x80)
    cut--;
  return g_strdup_printf ("%.*s...", (int) cut, text);
}

/* Checks the dotted core of a name (without the trailing "[]" pairs): no
 * empty parts; '*' only when allowed. */
static gboolean
check_name (Lexer *lx, const Token *tok, gboolean allow_star, gboolean allow_array, const char *what)
{
  g_autofree char *text = g_strndup (tok->start, tok->len);
  g_autofree char *quoted = quote_name (tok->start, tok->len);
  gsize core = tok->len;

  while (core >= 2 && text[core - 2] == '[' && text[core - 1] == ']')
    core -= 2;
  if (core < tok->len && !allow_array)
    return fail (lx, tok->line, tok->column, "'[]' is not allowed in %s '%s'", what, quoted);
  if (!allow_star && memchr (text, '*', core) != NULL)
    return fail (lx, tok->line, tok->column, "'*' is not allowed in %s '%s'", what, quoted);
  if (core == 0 || text[0] == '.' || text[core - 1] == '.' || g_strstr_len (text, core, "..") != NULL)
    return fail (lx, tok->line, tok->column, "invalid %s '%s'", what, quoted);
  return TRUE;
}

static gboolean
is_primitive_array (const char *name)
{
  static const char *const primitives[] = {
    "boolean", "byte", "char", "short", "int", "long", "float", "double",
  };
  const char *bracket = strchr (name, '[');

  if (bracket == NULL)
    return FALSE;
  for (gsize i = 0; i < G_N_ELEMENTS (primitives); i++)
    if ((gsize) (bracket - name) == strlen (primitives[i]) && strncmp (name, primitives[i], bracket - name) == 0)
      return TRUE;
  return FALSE;
}

/* Inside `namespace N`, a name without a dot that does not start with '*'
 * means N.name (primitive arrays stay as they are). */
static char *
qualify (const char *ns, const Token *tok)
{
  g_autofree char *name = g_strndup (tok->start, tok->len);

  if (ns == NULL || strchr (name, '.') != NULL || name[0] == '*' || is_primitive_array (name))
    return g_steal_pointer (&name);
  return g_strconcat (ns, ".", name, NULL);
}

void
tm_dsl_description_free (TmDslDescription *description)
{
  if (description == NULL)
    return;
  for (guint i = 0; i < description->n_pointees; i++)
    g_free (description->pointees[i].pattern);
  g_free (description->pointees);
  g_free (description->type);
  g_free (description);
}

static gboolean
parse_description (Lexer *lx, Token tok, const char *ns, GPtrArray *out)
{
  g_autoptr(GArray) pointees = g_array_new (FALSE, TRUE, sizeof (TmDslPointee));
  TmDslDescription *d;
  gboolean is_head = FALSE;
  Token type_tok, peek;
  char *type;

  if (token_is (&tok, "DS"))
    {
      if (!peek_token (lx, &peek))
        return next_token (lx, &peek);   /* reports the lexical error */
      if (peek.kind == TOK_NAME)
        {
          is_head = TRUE;
          if (!next_token (lx, &tok))
            return FALSE;
        }
    }
  if (tok.kind != TOK_NAME)
    return fail (lx, tok.line, tok.column, "expected a type name or 'DS', found %s", token_describe (&tok));
  if (!check_name (lx, &tok, FALSE, TRUE, "described type name"))
    return FALSE;
  type_tok = tok;

  if (!next_token (lx, &tok))
    return FALSE;
  if (tok.kind != TOK_LBRACE)
    return fail (lx, tok.line, tok.column, "expected '{' after type name, found %s", token_describe (&tok));

  for (;;)
    {
      TmDslPointee p = { 0 };

      if (!next_token (lx, &tok))
        goto error;
      if (tok.kind == TOK_RBRACE)
        break;
      if (tok.kind == TOK_EOF)
        {
          fail (lx, tok.line, tok.column, "expected pointee or '}' before end of file (description opened at %u:%u)",
                type_tok.line, type_tok.column);
          goto error;
        }
      p.line = tok.line;
      p.column = tok.column;
      if (tok.kind == TOK_LPAREN)
        {
          p.leaf = TRUE;
          if (!next_token (lx, &tok))
            goto error;
          if (tok.kind != TOK_NAME)
            {
              fail (lx, tok.line, tok.column, "expected type pattern after '(', found %s", token_describe (&tok));
              goto error;
            }
        }
      else if (tok.kind != TOK_NAME)
        {
          fail (lx, tok.line, tok.column, "expected pointee or '}', found %s", token_describe (&tok));
          goto error;
        }
      if (!check_name (lx, &tok, TRUE, TRUE, "type pattern"))
        goto error;
      p.pattern = qualify (ns, &tok);
      p.wildcard = strchr (p.pattern, '*') != NULL;
      g_array_append_val (pointees, p);

      if (p.leaf)
        {
          if (!next_token (lx, &tok))
            goto error;
          if (tok.kind != TOK_RPAREN)
            {
              fail (lx, tok.line, tok.column, "expected ')' after leaf pattern, found %s", token_describe (&tok));
              goto error;
            }
        }
      if (!next_token (lx, &tok))
        goto error;
      if (tok.kind == TOK_SEMI)
        continue;
      if (tok.kind == TOK_RBRACE)
        break;
      fail (lx, tok.line, tok.column, "expected ';' or '}' after pointee");
      goto error;
    }

  type = qualify (ns, &type_tok);
  d = g_new0 (TmDslDescription, 1);
  d->type = type;
  d->is_head = is_head;
  d->line = type_tok.line;
  d->column = type_tok.column;
  d->file = lx->name;
  d->n_pointees = pointees->len;
  d->pointees = (TmDslPointee *) (void *) g_array_free (g_steal_pointer (&pointees), FALSE);
  g_ptr_array_add (out, d);
  return TRUE;

error:
  for (guint i = 0; i < pointees->len; i++)
    g_free (g_array_index (pointees, TmDslPointee, i).pattern);
  return FALSE;
}

static gboolean
parse_namespace (Lexer *lx, GPtrArray *out)
{
  g_autofree char *ns = NULL;
  Token tok, name_tok, peek;

  if (!next_token (lx, &name_tok))
    return FALSE;
  if (name_tok.kind != TOK_NAME)
    return fail (lx, name_tok.line, name_tok.column, "expected namespace name after 'namespace'");
  if (!check_name (lx, &name_tok, FALSE, FALSE, "namespace name"))
    return FALSE;
  ns = g_strndup (name_tok.start, name_tok.len);
  if (strchr (ns, '$') != NULL)
    {
      g_autofree char *quoted = quote_name (name_tok.start, name_tok.len);
      return fail (lx, name_tok.line, name_tok.column, "invalid namespace name '%s'", quoted);
    }

  if (!next_token (lx, &tok))
    return FALSE;
  if (tok.kind != TOK_LBRACE)
    return fail (lx, tok.line, tok.column, "expected '{' after namespace name, found %s", token_describe (&tok));

  for (;;)
    {
      if (!next_token (lx, &tok))
        return FALSE;
      if (tok.kind == TOK_RBRACE)
        return TRUE;
      if (tok.kind == TOK_EOF)
        {
          g_autofree char *quoted = quote_name (name_tok.start, name_tok.len);
          return fail (lx, tok.line, tok.column, "expected '}' closing namespace '%s' (opened at %u:%u) before end of file",
                       quoted, name_tok.line, name_tok.column);
        }
      if (token_is (&tok, "namespace") && peek_token (lx, &peek) && peek.kind == TOK_NAME)
        return fail (lx, tok.line, tok.column, "namespaces cannot be nested");
      if (!parse_description (lx, tok, ns, out))
        return FALSE;
    }
}

GPtrArray *
tm_dsl_parse (const char  *name,
              const char  *text,
              gsize        length,
              GError     **error)
{
  g_autoptr(GPtrArray) out = g_ptr_array_new_with_free_func ((GDestroyNotify) tm_dsl_description_free);
  Lexer lx = { name, text, length, 0, 1, 1, error };

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (text != NULL || length == 0, NULL);

  for (;;)
    {
      Token tok, peek;

      if (!next_token (&lx, &tok))
        return NULL;
      if (tok.kind == TOK_EOF)
        break;
      if (token_is (&tok, "namespace") && peek_token (&lx, &peek) && peek.kind == TOK_NAME)
        {
          if (!parse_namespace (&lx, out))
            return NULL;
        }
      else if (!parse_description (&lx, tok, NULL, out))
        return NULL;
    }
  return g_steal_pointer (&out);
}
