// The admin's Periodic task form: under the crontab field, the chosen schedule in plain words
// (what django-celery-beat's template does inline, which the Content-Security-Policy blocks).
(function () {
  "use strict";
  const script = document.currentScript;
  const $ = django.jQuery;
  const readable = JSON.parse(document.getElementById("readable-crontabs").textContent);
  const help = script.dataset.crontabHelp;

  $(".field-crontab_translation").hide();
  $(".field-crontab").change(() => {
    const explanation = $(".field-crontab .help").first();
    explanation.text(help);
    explanation.append("<br>", document.createTextNode(`Translation: ${readable[$("#id_crontab").val()]}`));
  });
})();
