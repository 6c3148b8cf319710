from django.apps import AppConfig


class HelpConfig(AppConfig):
    name = "tcgsite.help"
    label = "help"

    def ready(self):
        from tcgsite.help.content import help_content

        # A bad content file stops the site at start-up with a message naming the field, as a
        # bad set file does, rather than on the first visit to Help.
        help_content()
