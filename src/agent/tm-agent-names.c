/* SPDX-License-Identifier: GPL-3.0-or-later
 * JVM signatures to the trace's Java names: "[Ljava/lang/String;" becomes
 * "java.lang.String[]", a method becomes "pkg.Class.name(String, int)". */
#include "tm-agent.h"

#include <string.h>

static const char *
primitive_name (char c)
{
  switch (c)
    {
    case 'Z': return "boolean";
    case 'B': return "byte";
    case 'C': return "char";
    case 'S': return "short";
    case 'I': return "int";
    case 'J': return "long";
    case 'F': return "float";
    case 'D': return "double";
    case 'V': return "void";
    default:  return NULL;
    }
}

/* Appends the type starting at *p to out and advances *p past it.
 * simple: drop the package.  Returns FALSE on a malformed signature. */
static gboolean
append_field_type (GString *out, const char **p, gboolean simple)
{
  guint dims = 0;
  const char *s = *p;

  while (*s == '[')
    {
      dims++;
      s++;
    }
  if (*s == 'L')
    {
      const char *end = strchr (s, ';');
      const char *start = s + 1;
      if (end == NULL)
        return FALSE;
      if (simple)
        {
          const char *slash = start;
          for (const char *q = start; q < end; q++)
            if (*q == '/')
              slash = q + 1;
          start = slash;
        }
      for (const char *q = start; q < end; q++)
        g_string_append_c (out, *q == '/' ? '.' : *q);
      s = end + 1;
    }
  else
    {
      const char *prim = primitive_name (*s);
      if (prim == NULL)
        return FALSE;
      g_string_append (out, prim);
      s++;
    }
  for (guint i = 0; i < dims; i++)
    g_string_append (out, "[]");
  *p = s;
  return TRUE;
}

char *
tm_agent_type_name_from_signature (const char *signature, guint32 *flags)
{
  GString *out = g_string_new (NULL);
  const char *p = signature;

  *flags = 0;
  if (signature[0] == '[')
    *flags = (signature[1] == '[' || signature[1] == 'L') ? TM_TYPE_FLAG_REF_ARRAY : TM_TYPE_FLAG_PRIM_ARRAY;
  if (!append_field_type (out, &p, FALSE) || *p != '\0')
    {
      /* Not a field signature: keep the text, with dots. */
      g_string_truncate (out, 0);
      for (p = signature; *p; p++)
        g_string_append_c (out, *p == '/' ? '.' : *p);
    }
  return g_string_free (out, FALSE);
}

char *
tm_agent_method_name (const char *class_signature, const char *name, const char *method_signature)
{
  GString *out = g_string_new (NULL);
  const char *p = class_signature;
  guint32 flags;

  if (p != NULL && *p == 'L')
    append_field_type (out, &p, FALSE);
  else if (p != NULL)
    {
      char *t = tm_agent_type_name_from_signature (p, &flags);
      g_string_append (out, t);
      g_free (t);
    }
  g_string_append_c (out, '.');
  g_string_append (out, name ? name : "?");
  g_string_append_c (out, '(');
  p = method_signature;
  if (p != NULL && *p == '(')
    {
      gboolean first = TRUE;
      p++;
      while (*p != '\0' && *p != ')')
        {
          if (!first)
            g_string_append (out, ", ");
          first = FALSE;
          if (!append_field_type (out, &p, TRUE))
            break;
        }
    }
  g_string_append_c (out, ')');
  return g_string_free (out, FALSE);
}
