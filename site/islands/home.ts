// The home page's behaviour, written into the page as one script (lib/home-script.ts): one tag and
// one CSP hash instead of two, which the home page's 14 KB of HTML has no room for.
import './header-over-hero.ts';
import './home-gallery.ts';
