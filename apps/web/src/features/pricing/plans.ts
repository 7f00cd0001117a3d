/** SPEC §9: yearly prices in rupees; each plan includes everything of the one before it. */
export interface Plan {
  name: 'Free' | 'Premium' | 'Advanced';
  price: number;
  tagline: string;
  features: string[];
  /** How many of `features` come from the plan below (shown as "Everything in …"). */
  inherited: number;
  highlighted?: boolean;
}

const free = ['Messaging', 'Video Calling', 'Group Calling', 'Project Management'];
const premium = [...free, 'AI Tools for Project Management', 'Task Management', 'Message Summarizer'];
const advanced = [...premium, 'Extra Space', 'File Storage'];

export const plans: Plan[] = [
  { name: 'Free', price: 0, tagline: 'For small teams getting started.', features: free, inherited: 0 },
  {
    name: 'Premium',
    price: 199,
    tagline: 'AI help for teams that ship every week.',
    features: premium,
    inherited: free.length,
    highlighted: true,
  },
  {
    name: 'Advanced',
    price: 399,
    tagline: 'Room to grow, with storage for every file.',
    features: advanced,
    inherited: premium.length,
  },
];
