// Mounts the app and nothing else: the wiring lives in app.tsx.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app.js';
import { createAppRouter } from './routes/router.js';
import { createStore } from './store/store.js';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App store={createStore()} router={createAppRouter()} />
  </StrictMode>,
);
