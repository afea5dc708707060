/** The menus that open the AI call lists and details (AI外呼, AI接待): the routes and the transcript check them. */
export const AICALL_MENUS = ['/aicall/Index', '/aireception/Index'];
