"""Reading a filled sheet from a photo (needs the optional extra: pip install 'sheetkit[photo]')."""
