// The Cite view's sample: a query, two sources and an outline (the demo
// host writes the claims from the evidence).

export const SAMPLE = {
  query: 'How did the Treaty of Paris end the American Revolutionary War?',
  outline: ['The signing of the treaty', 'How long the war lasted'],
  sources: [
    { id: 'paris', title: 'Treaty history', content: 'The Treaty of Paris was signed in 1783 by the United States and Britain. It ended the American Revolutionary War after eight long years of fighting. Britain recognised American independence — “a lasting peace”, in the negotiators’ words.' },
    { id: 'cats', title: 'Cats', content: 'Cats sleep for around sixteen hours every day, far more than most other mammals do.' },
  ],
};
