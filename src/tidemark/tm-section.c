/* SPDX-License-Identifier: GPL-3.0-or-later
 * The base of the analysis views (see the header). */
#include "tm-config.h"
#include "tm-section.h"

typedef struct
{
  TmSession *session;
  char      *title;
} TmSectionPrivate;

G_DEFINE_ABSTRACT_TYPE_WITH_PRIVATE (TmSection, tm_section, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_SESSION, PROP_TITLE, N_PROPS };
static GParamSpec *properties[N_PROPS];

static void
tm_section_finalize (GObject *object)
{
  TmSectionPrivate *priv = tm_section_get_instance_private (TM_SECTION (object));

  g_clear_object (&priv->session);
  g_free (priv->title);
  G_OBJECT_CLASS (tm_section_parent_class)->finalize (object);
}

static void
tm_section_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  TmSectionPrivate *priv = tm_section_get_instance_private (TM_SECTION (object));

  switch (prop_id)
    {
    case PROP_SESSION: g_value_set_object (value, priv->session); break;
    case PROP_TITLE:   g_value_set_string (value, priv->title); break;
    default:           G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_section_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  TmSection *self = TM_SECTION (object);
  TmSectionPrivate *priv = tm_section_get_instance_private (self);

  switch (prop_id)
    {
    case PROP_SESSION: priv->session = g_value_dup_object (value); break;
    case PROP_TITLE:   tm_section_set_title (self, g_value_get_string (value)); break;
    default:           G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
tm_section_class_init (TmSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = tm_section_finalize;
  object_class->get_property = tm_section_get_property;
  object_class->set_property = tm_section_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, TM_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
tm_section_init (TmSection *self)
{
}

TmSession *
tm_section_get_session (TmSection *self)
{
  TmSectionPrivate *priv = tm_section_get_instance_private (self);

  g_return_val_if_fail (TM_IS_SECTION (self), NULL);
  return priv->session;
}

TmDocument *
tm_section_get_document (TmSection *self)
{
  TmSectionPrivate *priv = tm_section_get_instance_private (self);

  g_return_val_if_fail (TM_IS_SECTION (self), NULL);
  return priv->session ? tm_session_get_document (priv->session) : NULL;
}

const char *
tm_section_get_title (TmSection *self)
{
  TmSectionPrivate *priv = tm_section_get_instance_private (self);

  g_return_val_if_fail (TM_IS_SECTION (self), NULL);
  return priv->title;
}

void
tm_section_set_title (TmSection *self, const char *title)
{
  TmSectionPrivate *priv = tm_section_get_instance_private (self);

  g_return_if_fail (TM_IS_SECTION (self));
  if (g_strcmp0 (priv->title, title) == 0)
    return;
  g_free (priv->title);
  priv->title = g_strdup (title);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
}
