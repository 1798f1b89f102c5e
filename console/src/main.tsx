import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { configureApi } from './api/client';
import { loadConfig } from './config';
import { signedOut } from './session/session-events';

const config = await loadConfig();
configureApi(config.apiUrl, signedOut);
createRoot(document.getElementById('root')!).render(<App />);
