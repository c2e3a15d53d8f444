import { OrderListResponseSchema, OrderPatchSchema, OrderQuerySchema, OrderSchema } from '../orders.ts';
import { body, csv, errors, ifMatch, json, KEY_ERRORS, parameters, staffOrKey, textId, type Paths } from './shared.ts';

const tags = ['Orders'];
const orderId = parameters(textId('The id of an order'), 'path');
const version = ifMatch(false, 'The ETag of the order as read ("v<version>"); or send `version` in the body. One of them is required');

/** Orders the buyers' accepts made, fulfilled by staff (quotes service). */
export const orderPaths: Paths = {
  '/api/admin/orders': {
    get: {
      tags,
      operationId: 'listOrders',
      summary: 'Orders, newest first, filtered (status, search, dates) and paged, with counts per status',
      security: staffOrKey('quotes:read'),
      parameters: parameters(OrderQuerySchema, 'query'),
      responses: { 200: json(OrderListResponseSchema, 'A page of orders'), ...errors(400, ...KEY_ERRORS) },
    },
  },
  '/api/admin/orders/export.csv': {
    get: {
      tags,
      operationId: 'exportOrders',
      summary: 'The filtered orders as CSV',
      security: staffOrKey('quotes:read'),
      parameters: parameters(OrderQuerySchema, 'query'),
      responses: { 200: csv('One row per order'), ...errors(400, ...KEY_ERRORS) },
    },
  },
  '/api/admin/orders/{id}': {
    get: {
      tags,
      operationId: 'getOrder',
      summary: 'One order (ETag: its version)',
      security: staffOrKey('quotes:read'),
      parameters: orderId,
      responses: { 200: json(OrderSchema, 'The order'), ...errors(...KEY_ERRORS, 404) },
    },
    patch: {
      tags,
      operationId: 'updateOrder',
      summary: 'Move the order on: shipped (carrier, tracking number), delivered, or cancelled (a reason); the buyer is mailed',
      security: staffOrKey('quotes:write'),
      parameters: [...orderId, version],
      requestBody: body(OrderPatchSchema),
      responses: {
        200: json(OrderSchema, 'The order as it is now'),
        ...errors(
          [400, 'Invalid body or If-Match: a shipment without carrier or tracking number, a cancel without a reason'],
          ...KEY_ERRORS,
          404,
          [409, 'Changed by someone else since it was read, or a status it cannot move to from its own'],
          413,
          428,
        ),
      },
    },
  },
  '/api/admin/orders/{id}/po-document': {
    get: {
      tags,
      operationId: 'getOrderPoDocument',
      summary: "The buyer's purchase-order document (a PDF), as they attached it when accepting",
      security: staffOrKey('quotes:read'),
      parameters: orderId,
      responses: {
        200: { description: 'The PDF (attachment, no-store)', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } },
        ...errors(...KEY_ERRORS, [404, 'No such order, or the buyer attached no document']),
      },
    },
  },
};
