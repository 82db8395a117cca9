import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ListChecks, Plus } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useOutletContext } from 'react-router';
import { post } from '../api/client';
import type { ApiData } from '../api/types';
import { ErrorMessage } from '../ui/Alert';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { EmptyState } from '../ui/EmptyState';
import { Field, TextArea } from '../ui/Field';
import { formatDateTime } from '../ui/format';
import { Loading } from '../ui/Spinner';
import { useToast } from '../ui/Toasts';
import type { VendorOutletContext } from '../vendors/VendorPage';
import { questionnairesKey, useQuestionnaires, useTemplates } from './api';
import { QStatusBadge } from './QStatusBadge';

/** A vendor's questionnaires: status, progress and score; a new one from the DORA template or own questions. */
export default function QuestionnairesTab() {
  const { vendor } = useOutletContext<VendorOutletContext>();
  const list = useQuestionnaires(vendor.workspaceId);
  const [creating, setCreating] = useState(false);
  const canWrite = vendor.permissions.canManageSync;
  return (
    <div>
      <div className="page-header" style={{ marginBottom: 12 }}>
        <div>
          <h2>Questionnaires</h2>
          <p className="page-sub">Due-diligence questionnaires the vendor answers through a personal link, scored per section.</p>
        </div>
        {canWrite && (
          <Button variant="primary" icon={<Plus size={16} aria-hidden="true" />} onClick={() => setCreating(true)}>
            New questionnaire
          </Button>
        )}
      </div>
      {list.isPending ? (
        <Loading label="Loading questionnaires…" />
      ) : list.isError ? (
        <ErrorMessage error={list.error} title="The questionnaires could not be loaded" onRetry={() => list.refetch()} />
      ) : list.data.questionnaires.length === 0 ? (
        <EmptyState
          icon={<ListChecks size={36} />}
          title="No questionnaire yet"
          action={
            canWrite && (
              <Button variant="primary" onClick={() => setCreating(true)}>
                Create the first questionnaire
              </Button>
            )
          }
        >
          <p>
            Start from the DORA ICT third-party template (52 questions, Articles 5-45) or write your own questions; pre-fill them from the vendor's documents,
            then send the link.
          </p>
        </EmptyState>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <caption className="visually-hidden">Questionnaires of {vendor.workspaceName}</caption>
            <thead>
              <tr>
                <th scope="col">Questionnaire</th>
                <th scope="col">Status</th>
                <th scope="col" className="num">
                  Answered
                </th>
                <th scope="col" className="num">
                  Score
                </th>
                <th scope="col">Sent to</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {list.data.questionnaires.map((q) => (
                <tr key={q.id}>
                  <td>
                    <Link className="strong-link" to={q.id}>
                      {q.title}
                    </Link>
                  </td>
                  <td>
                    <QStatusBadge status={q.status} />
                  </td>
                  <td className="num">
                    {q.progress.answered}/{q.progress.questions}
                  </td>
                  <td className="num">{q.score ?? '—'}</td>
                  <td>{q.vendorContact?.email ?? <span className="muted">—</span>}</td>
                  <td>{formatDateTime(q.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {canWrite && <NewQuestionnaireDialog open={creating} onClose={() => setCreating(false)} ws={vendor.workspaceId} />}
    </div>
  );
}

function NewQuestionnaireDialog({ open, onClose, ws }: { open: boolean; onClose: () => void; ws: string }) {
  const templates = useTemplates();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const toast = useToast();
  const [source, setSource] = useState<'template' | 'custom'>('template');
  const [sections, setSections] = useState<Set<string> | null>(null);
  const [title, setTitle] = useState('');
  const [custom, setCustom] = useState('');
  const [email, setEmail] = useState('');
  const [contactName, setContactName] = useState('');
  const [dueDate, setDueDate] = useState('');
  const [prefill, setPrefill] = useState(true);
  const [share, setShare] = useState(false);
  const tpl = templates.data?.[0];
  const chosen = sections ?? new Set(tpl?.sections.map((s) => s.id) ?? []);
  const create = useMutation({
    mutationFn: () => {
      const questions = custom
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .map((text) => ({ text, type: 'yes_no' as const }));
      const body: Record<string, unknown> = {
        ...(source === 'template' && tpl ? { template: tpl.id, ...(chosen.size < tpl.sections.length ? { templateSections: [...chosen] } : {}) } : {}),
        ...(questions.length ? { questions } : {}),
        ...(title.trim() ? { title: title.trim() } : {}),
        ...(email.trim() ? { vendorContact: { email: email.trim(), ...(contactName.trim() ? { name: contactName.trim() } : {}) } } : {}),
        ...(dueDate ? { dueDate } : {}),
        prefill,
        shareSuggestions: share,
      };
      return post<ApiData<'createQuestionnaire'>>('/questionnaires', body, {
        workspace: ws,
      });
    },
    onSuccess: async ({ questionnaire, prefill: pf }) => {
      await qc.invalidateQueries({ queryKey: questionnairesKey(ws) });
      toast.show(pf ? `Questionnaire created; ${pf.withValue} answers proposed from the documents` : 'Questionnaire created', 'success');
      onClose();
      navigate(questionnaire.id);
    },
  });
  return (
    <Dialog
      open={open}
      onClose={() => {
        create.reset();
        onClose();
      }}
      title="New questionnaire"
      wide
    >
      <form
        className="form"
        onSubmit={(e: FormEvent) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <fieldset className="form" style={{ border: 0, padding: 0, margin: 0 }}>
          <legend className="field-label-legend" style={{ fontWeight: 600, fontSize: '0.875rem' }}>
            Questions
          </legend>
          <label style={{ display: 'flex', gap: 8 }}>
            <input type="radio" name="q-source" checked={source === 'template'} onChange={() => setSource('template')} />
            {tpl ? `${tpl.title} (${tpl.questionCount} questions)` : 'The DORA template'}
          </label>
          {source === 'template' && tpl && (
            <div
              role="group"
              aria-label="Sections of the template"
              style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(230px, 1fr))', gap: 4, paddingLeft: 24 }}
            >
              {tpl.sections.map((s) => (
                <label key={s.id} className="small" style={{ display: 'flex', gap: 6 }}>
                  <input
                    type="checkbox"
                    checked={chosen.has(s.id)}
                    onChange={() => {
                      const n = new Set(chosen);
                      if (n.has(s.id)) n.delete(s.id);
                      else n.add(s.id);
                      setSections(n);
                    }}
                  />
                  {s.title} ({s.questionCount})
                </label>
              ))}
            </div>
          )}
          <label style={{ display: 'flex', gap: 8 }}>
            <input type="radio" name="q-source" checked={source === 'custom'} onChange={() => setSource('custom')} />
            Only my own questions
          </label>
        </fieldset>
        <TextArea
          label={source === 'template' ? 'Additional questions (optional)' : 'Your questions'}
          hint="One yes/no question per line."
          rows={3}
          value={custom}
          onChange={(e) => setCustom(e.target.value)}
        />
        <Field
          label="Title"
          value={title}
          maxLength={300}
          onChange={(e) => setTitle(e.target.value)}
          hint={source === 'template' ? 'Optional: the template title by default.' : 'Required for your own questions.'}
        />
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(200px, 1fr))', gap: 12 }}>
          <Field label="Vendor contact e-mail" type="email" value={email} onChange={(e) => setEmail(e.target.value)} hint="Needed to send the link." />
          <Field label="Contact name" value={contactName} maxLength={200} onChange={(e) => setContactName(e.target.value)} />
          <Field label="Due date" type="date" value={dueDate} onChange={(e) => setDueDate(e.target.value)} />
        </div>
        <label style={{ display: 'flex', gap: 8 }}>
          <input type="checkbox" checked={prefill} onChange={(e) => setPrefill(e.target.checked)} /> Pre-fill answers from the vendor's documents (with their
          sources)
        </label>
        <label style={{ display: 'flex', gap: 8 }}>
          <input type="checkbox" checked={share} onChange={(e) => setShare(e.target.checked)} /> Show the proposed answers to the vendor
        </label>
        {create.isError && <ErrorMessage error={create.error} title="The questionnaire was not created" />}
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={create.isPending}>
            {prefill && create.isPending ? 'Creating and pre-filling…' : 'Create questionnaire'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
