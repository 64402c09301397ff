// The console's only script: small conveniences. Every page works without it.
document.documentElement.classList.add('js');
document.addEventListener('DOMContentLoaded', () => {
  // The organization switcher opens the choice at once.
  for (const form of document.querySelectorAll('form[data-autosubmit]')) {
    for (const select of form.querySelectorAll('select')) {
      select.addEventListener('change', () => form.requestSubmit());
    }
  }
  // Destructive buttons ask first.
  for (const el of document.querySelectorAll('[data-confirm]')) {
    el.addEventListener('click', (event) => {
      if (!window.confirm(el.getAttribute('data-confirm'))) event.preventDefault();
    });
  }
  // Copy a secret shown once.
  for (const button of document.querySelectorAll('button[data-copy]')) {
    button.hidden = false;
    button.addEventListener('click', async () => {
      const target = document.getElementById(button.getAttribute('data-copy'));
      if (!target) return;
      await navigator.clipboard.writeText(target.textContent.trim());
      button.textContent = 'Copied';
    });
  }
});
