import { useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useEffect, type ReactNode } from 'react';
import { notificationGroupQueryOptions } from '../../api/notification-groups';
import { Button } from '../../components/ui/button';
import { Drawer } from '../../components/ui/drawer';
import { Skeleton } from '../../components/ui/skeleton';
import { Switch } from '../../components/ui/switch';
import { toast } from '../../components/ui/toast';
import { CommandButton } from '../../app/command-host/command-button';
import { useCommandRunner } from '../../app/command-host/run-command';
import { EmailAvatars } from './email-avatars';
import { EscalationSection } from './escalation-section';
import { GroupChannels } from './group-channels';

const listRoute = getRouteApi('/app/notification-groups');
const showRoute = getRouteApi('/app/notification-groups/show/$id');

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] items-start gap-3 border-b border-slate-100 py-2.5 text-sm dark:border-slate-800">
      <dt className="font-medium text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="min-w-0 break-words">{children}</dd>
    </div>
  );
}

/**
 * /notification-groups/show/$id (SPEC lists the route without content): a read view everyone
 * may open, where the palette's group rows and `group.show` land, with Edit and Delete for
 * those allowed. A failed load returns to the list, as for edit.
 */
export function ShowGroupRoute() {
  const { id } = showRoute.useParams();
  const navigate = listRoute.useNavigate();
  const runner = useCommandRunner();
  const close = () => void navigate({ to: '/notification-groups', search: (s) => s });
  const query = useQuery(notificationGroupQueryOptions(id));
  const canEdit = runner.check('group.edit');

  useEffect(() => {
    if (query.isError) {
      toast('error', `Could not load the notification group: ${query.error.message}`);
      close();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.isError]);

  const g = query.data?.result;
  return (
    <Drawer
      title={g?.name ?? 'Notification Group'}
      isOpen
      onOpenChange={(open) => !open && close()}
      footer={
        g && (
          <>
            <CommandButton command="group.delete" input={{ group: g._id }} variant="danger" onDone={() => toast('success', `Deleted notification group ${g.name}`)}>
              Delete
            </CommandButton>
            <Button variant="primary" disabledReason={canEdit === true ? false : canEdit} onPress={() => void navigate({ to: '/notification-groups/edit/$id', params: { id: g._id }, search: (s) => s })}>
              Edit
            </Button>
          </>
        )
      }
    >
      {!g ? (
        <div className="space-y-3" aria-busy>
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
          <Skeleton className="h-8" />
        </div>
      ) : (
        <dl>
          <Row label="Description">{g.description || <span className="text-slate-500 dark:text-slate-400">--</span>}</Row>
          <Row label="Email Enabled">
            <Switch isSelected={g.emailEnabled} isReadOnly aria-label="Email Enabled" />
          </Row>
          <Row label="Email List">
            {g.emailList.length ? (
              <div className="space-y-2">
                <EmailAvatars emails={g.emailList} />
                <ul aria-label="Email addresses" className="space-y-0.5">
                  {g.emailList.map((e) => (
                    <li key={e}>{e}</li>
                  ))}
                </ul>
              </div>
            ) : (
              <span className="text-slate-500 dark:text-slate-400">--</span>
            )}
          </Row>
          <Row label="Slack Enabled">
            <Switch isSelected={g.slackEnabled} isReadOnly aria-label="Slack Enabled" />
          </Row>
          <Row label="Slack Channel">{g.slackChannel || <span className="text-slate-500 dark:text-slate-400">--</span>}</Row>
          <Row label="Created At">{new Date(g.createdAt).toLocaleString()}</Row>
          <Row label="Updated At">{new Date(g.updatedAt).toLocaleString()}</Row>
        </dl>
      )}
      {g && <EscalationSection key={g._id} group={g} />}
      {g && <GroupChannels groupId={g._id} groupName={g.name} />}
    </Drawer>
  );
}
