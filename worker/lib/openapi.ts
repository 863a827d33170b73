import type { Hono } from 'hono';
import { describeRoute, generateSpecs, resolver } from 'hono-openapi';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { errorAnswer } from '../../schema/answers.ts';
import { SESSION_COOKIE } from '../middleware/session.ts';

/**
 * The OpenAPI 3.1 document of /api, generated from the routes themselves: each route names its
 * summary, tag and answers with `doc` below, and its parameters and body come from the zod
 * schema it validates with (validate() in ./validate.ts hands that schema to the generator).
 * Nothing is written twice, so the document cannot tell another story than the code.
 */

const ERROR = { $ref: '#/components/schemas/Error' };
const errorJson = (description: string) => ({ description, content: { 'application/json': { schema: ERROR } } });

/** What each refusal status means here, as the routes use it. */
const REFUSALS: Record<number, string> = {
  400: 'Неверные данные: текст ошибки для человека',
  401: 'Нужен вход в панель',
  403: 'Нет прав (или не тот источник запроса)',
  404: 'Не найдено',
  409: 'Конфликт с текущим состоянием',
  410: 'Больше не действует',
  413: 'Слишком большое тело запроса',
  415: 'Тип файла не принят',
  422: 'Отказано по правилам',
  429: 'Слишком много попыток: подождите',
  502: 'Внешний сервис не ответил',
  503: 'Временно недоступно',
};

/** A success answer: the zod schema of its JSON, or a media type and what it holds. */
type Answer = $ZodType | { description: string; media?: string; schema?: $ZodType };

export type DocOptions = {
  /** The success status (200 by default) and its answer. */
  status?: 200 | 201 | 202;
  answer?: Answer;
  /** The refusals this route itself answers beyond 400 for bad input (validate() adds that one). */
  errors?: number[];
  /** Behind the owner's session (requireAdmin): 401 and 403 are added. */
  admin?: boolean;
  /** A body no validate() reads (a multipart upload): its media type and schema. */
  body?: { media: string; schema: $ZodType };
  /** Answers of other statuses that are not the `{ error }` of a refusal (health's 503). */
  other?: Record<number, Answer>;
  description?: string;
};

/** Answers are described as they leave the server: a transform's output, not its input. */
const output = (schema: $ZodType) => resolver(schema as never, { options: { io: 'output' } });

function success(answer: Answer | undefined) {
  if (!answer) return { description: 'Успех' };
  if ('_zod' in answer) return { description: 'Успех', content: { 'application/json': { schema: output(answer) } } };
  const media = answer.media ?? 'application/json';
  return {
    description: answer.description,
    content: { [media]: answer.schema ? { schema: output(answer.schema) } : {} },
  };
}

/** The documenting middleware of one resource: `const doc = docs('Домики')`, then `doc('Список', {...})` on each route. */
export const docs =
  (tag: string) =>
  (summary: string, opts: DocOptions = {}) => {
    const refusals = [...(opts.admin ? [401, 403] : []), ...(opts.errors ?? [])];
    return describeRoute({
      tags: [tag],
      summary,
      ...(opts.description ? { description: opts.description } : {}),
      ...(opts.admin ? { security: [{ session: [] }] } : {}),
      ...(opts.body
        ? {
            requestBody: {
              required: true,
              content: { [opts.body.media]: { schema: resolver(opts.body.schema as never) } },
            },
          }
        : {}),
      responses: {
        [opts.status ?? 200]: success(opts.answer),
        ...Object.fromEntries(refusals.map((s) => [s, errorJson(REFUSALS[s] ?? 'Ошибка')])),
        ...Object.fromEntries(
          Object.entries(opts.other ?? {}).map(([s, answer]) => [
            s,
            { ...success(answer), description: REFUSALS[Number(s)] ?? 'Ответ' },
          ]),
        ),
      },
    });
  };

/** Every route may answer these: a fault, a busy database, a full disk. */
const ALWAYS = {
  500: errorJson('Ошибка сервера'),
  503: errorJson(REFUSALS[503]!),
  507: errorJson('Нет места на диске'),
};

/** The document of an app whose routes carry `doc(...)`. */
// biome-ignore lint/suspicious/noExplicitAny: any app of ours, whatever its bindings and routes
export async function openApiDocument(app: Hono<any, any, any>) {
  const { $schema: _, ...errorSchema } = z.toJSONSchema(errorAnswer, { target: 'draft-2020-12' });
  return generateSpecs(app, {
    documentation: {
      info: {
        title: '«Каспий» API',
        version: '1',
        description:
          'Сайт аренды домиков: публичные чтения, заявки гостей, панель владельца. Все ошибки: `{ error }` с текстом для человека.',
      },
      components: {
        schemas: { Error: errorSchema as never },
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE } },
      },
    },
    // /api/openapi.json and the reports' .csv and .xlsx are routes, not static files.
    excludeStaticFile: false,
    defaultValidationErrorResponse: errorJson(REFUSALS[400]!),
    defaultOptions: {
      GET: { responses: ALWAYS },
      POST: { responses: ALWAYS },
      PUT: { responses: ALWAYS },
      DELETE: { responses: ALWAYS },
    },
  });
}
