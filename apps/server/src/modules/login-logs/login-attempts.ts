/** Login attempts as the auth module writes and counts them (the login log is also its throttle's memory). */
export { countAccountFailures, countAddressFailures, insertLoginLog, type LoginAttempt } from './login-logs.repo';
