import { Button, Result } from 'antd';
import { Component, type ReactNode } from 'react';

type State = { error: Error | null };

/** Chunk or CSS loading failures (SPEC §8) and render errors end here, never in a blank page. */
export class ErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override render() {
    if (!this.state.error) return this.props.children;
    const isChunk = /Loading chunk|dynamically imported module|Importing a module script failed|CSS/.test(
      this.state.error.message,
    );
    return (
      <Result
        status="error"
        title={isChunk ? '页面资源加载失败' : '页面出错了'}
        subTitle={isChunk ? '可能是网络不稳定或系统刚刚升级，请刷新页面重试。' : this.state.error.message}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            刷新页面
          </Button>
        }
      />
    );
  }
}
