// The home page's header lies transparent over the hero until the page is scrolled more than 10 px.
const header = document.getElementById('site-header');
const update = () => header?.classList.toggle('is-solid', window.scrollY > 10);
addEventListener('scroll', update, { passive: true });
update();

export {};
