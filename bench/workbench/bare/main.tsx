// The baseline for the sign-in page's JavaScript: a React page with one form, built by the same Vite settings.
import { createRoot } from 'react-dom/client';

createRoot(document.getElementById('root')!).render(
  <form>
    <label>
      Username <input name="username" />
    </label>
  </form>,
);
