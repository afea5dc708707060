import {
  attrInfoQuery,
  attrInfoSchema,
  categoryCreateBody,
  categoryEditBody,
  countEnvelope,
  envelope,
  idBody,
  idEnvelope,
  listOf,
  okEnvelope,
  productBody,
  productCategorySchema,
  productDelBody,
  productEditBody,
  productImportBody,
  productImportResultSchema,
  productListQuery,
  productSchema,
  productStatusBody,
} from '@crm/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok } from '../../lib/reply';
import * as service from './products.service';
import { importProducts } from './products-import';

const tags = ['products'];
const menu = service.PRODUCT_MENU;

export const productsRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/api/frontend/product/list',
    { schema: { tags, summary: '产品列表', querystring: productListQuery, response: { 200: envelope(listOf(productSchema)) } } },
    async (req) => ok(await service.listProducts(app.db, req.actor, req.query)),
  );
  app.get(
    '/api/frontend/product/categorytree',
    { schema: { tags, summary: '产品分类树', response: { 200: envelope(z.object({ list: z.array(productCategorySchema) })) } } },
    async (req) => ok({ list: await service.categoryTree(app.db, req.actor) }),
  );
  app.get(
    '/api/frontend/product/attrinfo',
    { schema: { tags, summary: '订单属性与产品规格', querystring: attrInfoQuery, response: { 200: envelope(attrInfoSchema) } } },
    async (req) => ok(await service.attrInfo(app.db, req.actor, req.query.product_ids)),
  );
  app.post(
    '/api/frontend/product/create',
    { schema: { tags, summary: '新增产品', body: productBody, response: { 200: idEnvelope('id') } }, config: { menu } },
    async (req) => ok({ id: await service.createProduct(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/product/edit',
    { schema: { tags, summary: '编辑产品', body: productEditBody, response: { 200: okEnvelope } }, config: { menu } },
    async (req) => {
      await service.editProduct(app.db, req.actor, req.body);
      return ok(null, '添加/更新成功！');
    },
  );
  app.post(
    '/api/frontend/product/del',
    { schema: { tags, summary: '删除产品', body: productDelBody, response: { 200: countEnvelope } }, config: { menu } },
    async (req) => ok({ count: await service.deleteProducts(app.db, req.actor, req.body.ids) }, '删除成功'),
  );
  app.post(
    '/api/frontend/product/status',
    { schema: { tags, summary: '产品上架/下架', body: productStatusBody, response: { 200: countEnvelope } }, config: { menu } },
    async (req) => ok({ count: await service.setProductStatus(app.db, req.actor, req.body.ids, req.body.status) }),
  );
  app.post(
    '/api/frontend/product/import',
    {
      schema: {
        tags,
        summary: '导入产品（.xlsx，最多5000行）',
        body: productImportBody,
        response: { 200: envelope(productImportResultSchema) },
      },
      config: { menu },
    },
    async (req) => ok(await importProducts(app.db, app.config.dataDir, req.actor, req.body.fileId)),
  );
  app.post(
    '/api/frontend/product/categorycreate',
    {
      schema: { tags, summary: '新增产品分类', body: categoryCreateBody, response: { 200: idEnvelope('id') } },
      config: { menu },
    },
    async (req) => ok({ id: await service.createCategory(app.db, req.actor, req.body) }, '添加成功'),
  );
  app.post(
    '/api/frontend/product/categoryedit',
    { schema: { tags, summary: '编辑产品分类', body: categoryEditBody, response: { 200: okEnvelope } }, config: { menu } },
    async (req) => {
      await service.editCategory(app.db, req.actor, req.body);
      return ok(null, '添加/更新成功！');
    },
  );
  app.post(
    '/api/frontend/product/categorydel',
    { schema: { tags, summary: '删除产品分类', body: idBody, response: { 200: okEnvelope } }, config: { menu } },
    async (req) => {
      await service.deleteCategory(app.db, req.actor, req.body.id);
      return ok(null, '删除成功');
    },
  );
};
