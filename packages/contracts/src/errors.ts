/**
 * The one error table of the product (DESIGN §4). Every non-zero `code` the server sends
 * comes from here, with the HTTP status it travels with and a Chinese message fit to show.
 */
export const ERRORS = {
  // generic
  VALIDATION: { code: 100001, status: 400, msg: '请求参数错误' },
  LOGIN_EXPIRED: { code: 100002, status: 401, msg: '登录失效，请重新登录！' },
  FORBIDDEN_MENU: { code: 100003, status: 403, msg: '您没有访问该功能的权限，请联系管理员' },
  FORBIDDEN_ACTION: { code: 100004, status: 403, msg: '您没有执行该操作的权限，请联系管理员' },
  NOT_FOUND: { code: 100005, status: 404, msg: '数据不存在或已被删除' },
  RATE_LIMITED: { code: 100006, status: 429, msg: '请求过于频繁，请稍后再试' },
  INTERNAL: { code: 100500, status: 500, msg: '服务器开小差了，请稍后再试' },
  // request input the database cannot take (issue 11 hole 7): refused as a 4xx, never a 500
  INPUT_TOO_DEEP: { code: 100101, status: 400, msg: '请求数据层级过深' },
  INPUT_UNSTORABLE_TEXT: { code: 100102, status: 400, msg: '内容包含无法保存的字符' },
  INPUT_OUT_OF_RANGE: { code: 100103, status: 400, msg: '请求参数超出允许范围' },

  // auth (SPEC §3, issue 2)
  LOGIN_FAILED: { code: 101001, status: 400, msg: '账号或密码错误' },
  LOGIN_DISABLED: { code: 101002, status: 403, msg: '该账号已被禁用，请联系管理员' },
  LOGIN_ACCOUNT_EXPIRED: { code: 101003, status: 403, msg: '该账号已过期，请联系管理员续期' },
  LOGIN_TOO_MANY: { code: 101004, status: 429, msg: '登录失败次数过多，请15分钟后再试' },
  PASSWORD_OLD_WRONG: { code: 101005, status: 400, msg: '原密码不正确' },
  PASSWORD_MISMATCH: { code: 101006, status: 400, msg: '两次输入的新密码不一致' },
  PASSWORD_SAME: { code: 101007, status: 400, msg: '新密码不能与原密码相同' },
  COMPANY_DISABLED: { code: 101008, status: 403, msg: '所属企业已停用，请联系客服' },

  // departments
  DEPARTMENT_NAME_TAKEN: { code: 102001, status: 400, msg: '同级部门下已存在相同名称' },
  DEPARTMENT_HAS_CHILDREN: { code: 102002, status: 400, msg: '该部门下还有子部门，请先删除子部门' },
  DEPARTMENT_HAS_STAFF: { code: 102003, status: 400, msg: '该部门下还有员工，请先调整员工部门' },
  DEPARTMENT_PARENT_INVALID: { code: 102004, status: 400, msg: '上级部门不能是自己或自己的下级部门' },

  // roles
  ROLE_NAME_TAKEN: { code: 103001, status: 400, msg: '角色名称已存在' },
  ROLE_IN_USE: { code: 103002, status: 400, msg: '该角色下还有员工，不能删除' },
  ROLE_SYSTEM: { code: 103003, status: 400, msg: '超级管理员角色不能修改或删除' },

  // staff
  STAFF_USERNAME_TAKEN: { code: 104001, status: 400, msg: '该账号已被使用' },
  STAFF_PHONE_TAKEN: { code: 104002, status: 400, msg: '该手机号已被其他员工使用' },
  STAFF_SELF: { code: 104003, status: 400, msg: '不能禁用或删除自己的账号' },
  STAFF_OWNER: { code: 104004, status: 400, msg: '企业创建人的账号不能禁用或删除' },

  // uploads (SPEC §5)
  UPLOAD_TYPE: { code: 105001, status: 400, msg: '不支持的文件格式' },
  UPLOAD_TOO_MANY: { code: 105002, status: 400, msg: '请先移除已有文件再进行选择' },
  UPLOAD_TOO_LARGE: { code: 105003, status: 400, msg: '文件大小超出限制' },
  UPLOAD_EMPTY: { code: 105004, status: 400, msg: '请选择要上传的文件' },
  UPLOAD_CONTENT: { code: 105005, status: 400, msg: '文件内容与扩展名不符' },

  // customers (issue 3)
  TEMPLATE_CONTROL_USED: { code: 106001, status: 400, msg: '该控件已有客户数据，请改为禁用' },
  CUSTOMER_NAME_REQUIRED: { code: 106002, status: 400, msg: '客户名称不能为空' },
  CUSTOMER_NAME_REPEAT: { code: 106003, status: 400, msg: '客户名称已存在' },
  CUSTOMER_DUPLICATE: { code: 106004, status: 400, msg: '客户信息重复' },
  CUSTOMER_LIMIT: { code: 106005, status: 400, msg: '您的客户数量已达上限' },
  CONTROL_INVALID: { code: 106006, status: 400, msg: '客户资料填写有误' },
  CUSTOMER_NOT_FOUND: { code: 106007, status: 404, msg: '客户不存在或您无权查看' },
  JOB_NOT_FOUND: { code: 106008, status: 404, msg: '任务不存在或已过期' },
  IMPORT_FILE_INVALID: { code: 106009, status: 400, msg: '导入文件无法读取，请使用下载的模板填写' },

  // stages and labels (issue 4)
  STAGE_NAME_TAKEN: { code: 107001, status: 400, msg: '阶段名称已存在' },
  STAGE_IN_USE: { code: 107002, status: 400, msg: '该阶段下还有客户，请先调整客户阶段或改为禁用' },
  LABEL_NAME_TAKEN: { code: 107003, status: 400, msg: '同一分组下已存在相同名称的标签' },
  LABEL_IN_USE: { code: 107004, status: 400, msg: '该标签已被客户使用，请先移除或改为禁用' },
  LABEL_GROUP_NOT_EMPTY: { code: 107005, status: 400, msg: '该分组下还有标签，请先删除分组内的标签' },
  LABEL_GROUP_INVALID: { code: 107006, status: 400, msg: '标签必须放在一个标签分组下' },

  // follow-ups, contacts, phone reveal (issue 4)
  FOLLOW_EMPTY: { code: 108001, status: 400, msg: '请填写跟进内容' },
  FOLLOW_NEXT_TIME_PAST: { code: 108002, status: 400, msg: '下次跟进时间不能早于今天' },
  FOLLOW_NOT_FOUND: { code: 108003, status: 404, msg: '跟进记录不存在或已被删除' },
  FOLLOW_NOT_DELETABLE: { code: 108004, status: 400, msg: '该跟进记录不能删除' },
  CONTACT_PHONE_INVALID: { code: 108005, status: 400, msg: '请输入正确的电话号码' },
  CONTACT_DUPLICATE: { code: 108006, status: 400, msg: '该号码已在联系电话中' },
  CONTACT_NOT_FOUND: { code: 108007, status: 404, msg: '联系电话不存在或已被删除' },
  PHONE_REVEAL_LIMIT: { code: 108008, status: 400, msg: '今日查看完整号码的次数已用完，请明天再试' },
  DETAIL_FORBIDDEN: { code: 108009, status: 403, msg: '您没有查看该内容的权限，请联系管理员' },

  // shared pools, discard reasons, claim, allocation, recycling (issue 5)
  DISCARD_REASON_NAME_TAKEN: { code: 109001, status: 400, msg: '丢弃理由已存在' },
  POOL_NAME_TAKEN: { code: 109002, status: 400, msg: '公海名称已存在' },
  POOL_IN_USE: { code: 109003, status: 400, msg: '该公海中还有客户，请先处理公海客户或改为禁用' },
  POOL_NOT_AVAILABLE: { code: 109004, status: 400, msg: '请选择目标公海！' },
  DISCARD_REASON_REQUIRED: { code: 109005, status: 400, msg: '请选择丢弃理由！' },
  DISCARD_REASON_TEXT_REQUIRED: { code: 109006, status: 400, msg: '请填写丢弃理由！' },
  CLAIM_NONE: { code: 109007, status: 400, msg: '没有可领取的客户' },
  CLAIM_DAILY_LIMIT: { code: 109008, status: 400, msg: '今日领取数量已达上限' },
  CLAIM_COOLDOWN: { code: 109009, status: 400, msg: '您刚丢弃或被回收的客户暂不能领取' },
  ALLOT_TARGET_INVALID: { code: 109010, status: 400, msg: '接收人不存在、已禁用或不在您的管理范围内' },
  DISCARD_NONE: { code: 109011, status: 400, msg: '没有可丢弃的客户' },
  DELALL_CONFIRM: { code: 109012, status: 400, msg: '请输入“确认清空”以确认删除' },
  RECYCLE_BUSY: { code: 109013, status: 409, msg: '回收任务正在执行，请稍后再试' },
  RESTORE_EXPIRED: { code: 109014, status: 400, msg: '客户删除已超过30天，无法恢复' },
  // calling: extensions, dialing, call socket, blacklist (issue 6). 100011/100014 are SPEC §8 codes.
  BLACKLISTED: { code: 100011, status: 400, msg: '该号码已在黑名单中，禁止拨打' },
  TASK_BLACKLISTED: { code: 100014, status: 400, msg: '该号码已在黑名单中，已跳过本次任务外呼' },
  DIAL_NUMBER_INVALID: { code: 110001, status: 400, msg: '请正确输入电话号码' },
  SIP_OFFLINE: { code: 110002, status: 400, msg: '分机未在线' },
  SIP_NO_DEVICE: { code: 110003, status: 400, msg: '分机未绑定设备' },
  SIP_NO_DEFAULT: { code: 110004, status: 400, msg: '暂无默认分机' },
  CALL_TALKING: { code: 110005, status: 400, msg: '通话中请勿重复拨打' },
  DIAL_LOCKED: { code: 110006, status: 400, msg: '有其他号码正在通话中...请稍后再试！' },
  DIAL_REPEAT: { code: 110007, status: 400, msg: '请勿重复拨打' },
  HANGUP_TOO_EARLY: { code: 110008, status: 400, msg: '{n}s 后进行挂断' },
  CALL_TIMEOUT: { code: 110009, status: 400, msg: '呼叫超时!' },
  CALL_NOT_FOUND: { code: 110010, status: 404, msg: '通话不存在或已结束' },
  MULTI_LOGIN: { code: 110011, status: 400, msg: '请勿多端登录' },
  SIP_USER_TAKEN: { code: 110012, status: 400, msg: '分机号已存在' },
  SIP_NOT_FOUND: { code: 110013, status: 404, msg: '分机不存在或已被删除' },
  SIP_NOT_MINE: { code: 110014, status: 400, msg: '只能使用绑定给自己的分机' },
  SIP_IN_CALL: { code: 110015, status: 400, msg: '分机正在通话中，请稍后再试' },
  IMEI_TAKEN: { code: 110016, status: 400, msg: '该设备已绑定其他分机' },
  HANGUP_ON_PHONE: { code: 110017, status: 400, msg: '请前往手机进行挂断' },
  DEVICE_OFFLINE: { code: 110018, status: 400, msg: '设备未在线，请打开手机上的外呼助手' },
  DIAL_WRONG_CHANNEL: { code: 110019, status: 400, msg: '当前账号类型不能使用该拨号方式' },
  CALL_NOT_RINGING: { code: 110020, status: 400, msg: '来电已结束' },
  SIP_DISABLED: { code: 110021, status: 400, msg: '分机已被禁用，请联系管理员' },
  SIP_NOT_BOUND: { code: 110022, status: 400, msg: '该分机未绑定员工' },
  SIM_ONLY: { code: 110023, status: 400, msg: '仅模拟线路支持该操作' },
  // call control (issue 12): legs the server places, answers and bridges
  CALL_OUTSIDE_HOURS: { code: 110024, status: 400, msg: '当前不在允许外呼的时段（{from}–{to}），请稍后再拨' },
  CALL_LEG_NOT_FOUND: { code: 110025, status: 404, msg: '通话线路不存在或已结束' },
  CALL_INSTANCE_UNREACHABLE: { code: 110026, status: 503, msg: '通话所在的服务暂时无法连接，请稍后再试' },
  // 外呼设置 · 线路测试
  TTS_UNAVAILABLE: { code: 110027, status: 503, msg: '语音合成不可用：服务器未安装 espeak-ng 或 sox，无法进行线路测试' },
  TTS_FAILED: { code: 110028, status: 503, msg: '语音合成失败，请换一段提示语或稍后再试' },
  TEST_CALL_BUSY: { code: 110029, status: 409, msg: '已有线路测试正在进行，请等待其结束后再试' },
  BLACK_FILE_NOT_FOUND: { code: 110030, status: 404, msg: '黑名单文件不存在或已被删除' },
  BLACK_FILE_EMPTY: { code: 110031, status: 400, msg: '文件中没有有效的电话号码' },
  BLACK_FILE_TYPE: { code: 110032, status: 400, msg: '请上传 .xlsx 或 .txt 文件' },
  BLACK_NUMBER_INVALID: { code: 110033, status: 400, msg: '请输入正确的电话号码' },
  BLACK_NUMBER_EXISTS: { code: 110034, status: 400, msg: '该号码已在黑名单中' },
  BLACK_TOO_MANY: { code: 110035, status: 400, msg: '号码数量超出上限（20万）' },

  // products, approvals, deal orders (issue 13); SPEC §5/§8 messages verbatim
  CATEGORY_NAME_TAKEN: { code: 111001, status: 400, msg: '同级分类下已存在相同名称' },
  CATEGORY_HAS_CHILDREN: { code: 111002, status: 400, msg: '该分类下还有子分类，请先删除子分类' },
  CATEGORY_HAS_PRODUCTS: { code: 111003, status: 400, msg: '该分类下还有产品，请先调整产品分类' },
  CATEGORY_PARENT_INVALID: { code: 111004, status: 400, msg: '上级分类不存在或层级过深' },
  PRODUCT_CODE_TAKEN: { code: 111005, status: 400, msg: '产品编号已存在' },
  PRODUCT_NOT_FOUND: { code: 111006, status: 404, msg: '产品不存在或已被删除' },
  PRODUCT_VARIANTS_INVALID: { code: 111007, status: 400, msg: '规格组合填写有误，请为每个组合选择各规格的值' },
  PRODUCT_MIN_PRICE_INVALID: { code: 111008, status: 400, msg: '最低价不能高于售价' },
  PRODUCT_IMPORT_TOO_MANY: { code: 111009, status: 400, msg: '单次最多导入5000个产品' },
  TEMPLATE_NOT_FOUND: { code: 111020, status: 404, msg: '审批流程不存在或已停用' },
  TEMPLATE_NAME_TAKEN: { code: 111021, status: 400, msg: '审批流程名称已存在' },
  TEMPLATE_REQUIRED: { code: 111022, status: 400, msg: '请选择审批流程' },
  APPROVER_REQUIRED: { code: 111023, status: 400, msg: '请选择审批人！' },
  APPROVER_TOO_MANY: { code: 111024, status: 400, msg: '最多选择3名！' },
  APPROVER_INVALID: { code: 111025, status: 400, msg: '审批人不存在或已禁用' },
  TEMPLATE_NO_APPROVER: { code: 111026, status: 400, msg: '请至少添加一个审批人节点' },
  APPROVAL_CONTROL_REQUIRED: { code: 111027, status: 400, msg: '请填写审批内容' },
  APPROVAL_NOT_FOUND: { code: 111030, status: 404, msg: '审批不存在或您无权查看' },
  APPROVAL_DONE: { code: 111031, status: 409, msg: '该审批已处理，请刷新后查看' },
  APPROVAL_NOT_APPROVER: { code: 111032, status: 403, msg: '您不是当前节点的审批人' },
  APPROVAL_ALREADY_ACTED: { code: 111033, status: 409, msg: '您已审批过该节点，请等待其他审批人' },
  APPROVAL_NOT_SUBMITTER: { code: 111034, status: 403, msg: '只有发起人可以撤回审批' },
  APPROVAL_DOC_INVALID: { code: 111035, status: 400, msg: '审批关联的单据不存在或不能提交' },
  PRODUCT_REQUIRED: { code: 111040, status: 400, msg: '请选择产品' },
  CONTACT_PHONE_REQUIRED: { code: 111041, status: 400, msg: '请输入联系方式' },
  ORDER_ATTR_REQUIRED: { code: 111042, status: 400, msg: '请输入订单信息' },
  ORDER_PRODUCT_INVALID: { code: 111043, status: 400, msg: '产品不存在或已下架' },
  ORDER_VARIANT_REQUIRED: { code: 111044, status: 400, msg: '请选择产品规格' },
  ORDER_AMOUNT_TOO_LARGE: { code: 111045, status: 400, msg: '订单金额不能超过999999999' },
  ORDER_IMAGES_TOO_MANY: { code: 111046, status: 400, msg: '最多上传9张图片' },
  ORDER_IMAGE_INVALID: { code: 111047, status: 400, msg: '文件格式不正确' },
  ORDER_NOT_FOUND: { code: 111048, status: 404, msg: '订单不存在或您无权查看' },
  ORDER_ALREADY_SUBMITTED: { code: 111049, status: 409, msg: '该订单已提交审批，请勿重复提交' },
  ORDER_NOT_OWNER: { code: 111050, status: 403, msg: '只有订单负责人可以提交审批' },
  OWNER_REQUIRED: { code: 111051, status: 400, msg: '请选择负责人' },
  COOPERATOR_INVALID: { code: 111052, status: 400, msg: '协同人不存在或已禁用' },
  ORDER_DATE_INVALID: { code: 111053, status: 400, msg: '服务结束日期不能早于开始日期' },
} as const;

export type ErrorKey = keyof typeof ERRORS;
export type ErrorEntry = (typeof ERRORS)[ErrorKey];

/** Codes the web treats specially (SPEC §8). */
export const LOGIN_EXPIRED_CODE = ERRORS.LOGIN_EXPIRED.code;
