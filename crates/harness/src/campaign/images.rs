//! Verify's symmetry, checked rather than assumed: with symmetry the
//! reference solves one case of each class, and the core answers every
//! other image of it, held to that case's answer (docs/decisions.md,
//! "Symmetry is checked, not assumed").

use super::Differential;
use crate::puzzle::{Agreement, Attempt, Attempts, Puzzle};
use lockstep_core::Model;

impl<P: Puzzle> Differential<P> {
    /// Holds the symmetry a run with symmetry counts on: the core (the
    /// cheap side) answers every other image of a class whose pick the two
    /// sides agree on, and each must have the pick's `answer` (the images
    /// keep the answer, [`crate::enumerate::Levels::images`]). A core that
    /// treats two images apart (a table filled for some rows only) is then
    /// found like any other bug: the first image that differs, with both
    /// sides' results on it. `None` when every image agrees.
    ///
    /// Only an image the core answers differently is given to the
    /// reference. If the reference then gives the core's answer, the
    /// images were not symmetric after all: lockstep's own bug, said as
    /// such rather than counted as a verdict.
    pub(super) fn images(
        &self,
        case: &P::Case,
        answer: &P::Answer,
    ) -> Option<(P::Case, Agreement<P::Answer>)> {
        let images = (P::LEVELS.images)(case);
        let mut seen: Vec<&P::Case> = vec![case];
        for image in &images {
            if seen.contains(&image) {
                continue;
            }
            seen.push(image);
            let core = crate::puzzle::run_core::<P>(image, self.solver);
            if matches!(&core, Attempt::Ran(run) if run.answer == *answer) {
                continue;
            }
            // The reference out of fuel on the image (it finished the
            // pick): the class's answer stands for it, since the images
            // keep the answer, and the core's differs from it.
            let reference =
                crate::puzzle::run_reference::<P>(image, P::FUEL).unwrap_or_else(|| {
                    Attempt::Ran(lockstep_core::Run {
                        answer: answer.clone(),
                        digest: 0,
                    })
                });
            let same = |a: &Attempt<P::Answer>, b: &Attempt<P::Answer>| matches!((a, b), (Attempt::Ran(a), Attempt::Ran(b)) if a.answer == b.answer);
            assert!(
                !same(&core, &reference),
                "lockstep bug: the {} levels' images of a case do not keep its answer: \
                 both sides answer\n{}\nwith another answer than they give\n{}",
                P::NAME,
                image.write_input(),
                case.write_input()
            );
            let agreement = (Attempts {
                core,
                reference: Some(reference),
            })
            .into_agreement();
            return Some((image.clone(), agreement));
        }
        None
    }
}
