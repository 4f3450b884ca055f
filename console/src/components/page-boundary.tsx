import { Component, type ReactNode } from "react";

// A page that fails to render says so and leaves the navigation working, rather than a blank tab.
export class PageBoundary extends Component<{ children: ReactNode; page: string }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidUpdate(previous: { page: string }) {
    if (previous.page !== this.props.page && this.state.failed) this.setState({ failed: false });
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <p className="error" role="alert">
        This page could not be shown. Reload it; if it keeps happening, tell the operator.
      </p>
    );
  }
}
