"""Align: link each foreign cluster to the English cluster it translates, or to none.

The inputs are not parallel documents: candidates come from shared anchors, scores from
anchor agreement, length and (in translation-memory dumps) adjacency, and links are made one
to one above a threshold (`paragraphs`). Inside every link, sentences are aligned
(`sentences`) so that a check can point at the sentence with no counterpart.
"""
