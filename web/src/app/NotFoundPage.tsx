import { Link } from 'react-router';
import { useTitle } from '../lib/useTitle';
import { EmptyState } from '../ui/EmptyState';

export function NotFoundPage() {
  useTitle('Page not found');
  return (
    <EmptyState
      title="This page does not exist"
      action={
        <Link to="/vendors" className="btn btn-primary btn-md">
          Go to vendors
        </Link>
      }
    >
      <p>The address may be mistyped, or the page was moved.</p>
    </EmptyState>
  );
}
