"""The statutory documents: the s.13(2) notice and its proclamation (text and printable
page), the s.15(3) account and receipt, and the words of the printed documents and charts."""
