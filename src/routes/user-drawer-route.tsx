import { useQuery } from '@tanstack/react-query';
import { can } from '../../server/contract/permissions';
import { whoamiQueryOptions } from '../api/auth';
import { ContactMethods } from '../features/account/contact-methods';
import { NotificationRules } from '../features/account/notification-rules';
import { UserDrawerRoute } from '../features/users/user-drawer';

/**
 * The user drawer with, for an admin, the person's contact methods and notification rules
 * (issue 27 §2): the Account Settings sections, their commands run with `--user`. Composed here
 * because features do not import each other.
 */
export function UserDrawerWithPaging() {
  const me = useQuery(whoamiQueryOptions()).data?.result;
  const admin = !!me && can(me.role, 'users.write');
  return (
    <UserDrawerRoute
      paging={(user) =>
        admin && (
          <div className="mt-6 space-y-6 border-t border-slate-200 pt-4 dark:border-slate-700">
            <ContactMethods userId={user._id} person={user.username} />
            <NotificationRules userId={user._id} person={user.username} />
          </div>
        )
      }
    />
  );
}
