import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for an OpenAI-compatible server (OpenAI, Ollama, vLLM, llama.cpp): serves
 * `POST /v1/chat/completions`, records every request body, and answers with what the test scripts —
 * a text, a delay longer than the client's timeout, or an HTTP error.
 */
export interface ChatCompletionRequest {
  model: string;
  messages: { role: string; content: string }[];
  [key: string]: unknown;
}

export type FakeReply =
  | { text: string; delayMs?: number }
  | { status: number; delayMs?: number }
  | ((request: ChatCompletionRequest) => { text: string; delayMs?: number });

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
    });
    req.on('end', () => resolve(body));
    req.on('error', reject);
  });

export async function startFakeOpenAi() {
  const requests: ChatCompletionRequest[] = [];
  let reply: FakeReply = { text: 'A summary.' };
  const pending = new Set<NodeJS.Timeout>();

  const server: Server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const body = JSON.parse(await readBody(req)) as ChatCompletionRequest;
    requests.push(body);
    const answer = typeof reply === 'function' ? reply(body) : reply;
    const send = () => {
      if (res.destroyed) return;
      if ('status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'scripted failure', type: 'server_error' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: `chatcmpl-${requests.length}`,
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model: body.model,
          choices: [
            { index: 0, message: { role: 'assistant', content: answer.text }, finish_reason: 'stop' },
          ],
          usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
        }),
      );
    };
    if (answer.delayMs) {
      const timer = setTimeout(() => {
        pending.delete(timer);
        send();
      }, answer.delayMs);
      pending.add(timer);
    } else send();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    /** What to give OPENAI_BASE_URL. */
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    setReply(next: FakeReply) {
      reply = next;
    },
    close: async () => {
      for (const timer of pending) clearTimeout(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
